import { posix } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'ssh2';

export type SftpTarget = {
  host: string;
  port: number;
  username: string;
  password: string;
  directory: string;
};

/** Only the reason, never the file or the credentials: what a failed delivery keeps and shows. */
export class DeliveryError extends Error {}

/**
 * Uploads a stream to `<directory>/<fileName>` on an SFTP server (written as `.part`, then renamed, so the
 * receiving side never reads half a file). Times out after `timeoutMs`.
 */
export function sftpUpload(
  target: SftpTarget,
  fileName: string,
  source: Readable,
  timeoutMs = 20_000,
): Promise<string> {
  const remote = posix.join('/', target.directory || '/', fileName).replace(/^\/+/, '/');
  const partial = `${remote}.part`;
  return new Promise((resolve, reject) => {
    const client = new Client();
    let settled = false;
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      client.end();
      if (error) reject(error instanceof DeliveryError ? error : new DeliveryError(error.message));
      else resolve(remote);
    };
    client
      .on('ready', () => {
        client.sftp((err, sftp) => {
          if (err) return finish(err);
          const write = sftp.createWriteStream(partial);
          pipeline(source, write)
            .then(
              () =>
                new Promise<void>((done, fail) => {
                  sftp.rename(partial, remote, (e) => {
                    if (!e) return done();
                    // An existing file of that name: replace it.
                    sftp.unlink(remote, () => sftp.rename(partial, remote, (e2) => (e2 ? fail(e2) : done())));
                  });
                }),
            )
            .then(() => finish(null))
            .catch((e: Error) => finish(e));
        });
      })
      .on('error', (e) => finish(new DeliveryError(`Could not reach the server: ${e.message}`)))
      .connect({
        host: target.host,
        port: target.port,
        username: target.username,
        password: target.password,
        readyTimeout: timeoutMs,
        timeout: timeoutMs,
      });
  });
}
