import { createHash } from 'node:crypto';
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
  /** The fingerprint (`SHA256:…`) the server must present; null: accept the key seen and report it (to pin). */
  hostKey: string | null;
};

/** A host key's fingerprint as OpenSSH prints it: SHA256 of the key blob, base64 without padding. */
export function hostKeyFingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

/** Only the reason, never the file or the credentials: what a failed delivery keeps and shows. */
export class DeliveryError extends Error {}

/**
 * Uploads a stream to `<directory>/<fileName>` on an SFTP server (written as `.part`, then renamed, so the
 * receiving side never reads half a file). The server must present the pinned host key, else nothing is sent
 * (not even the password). Answers the remote path and the key the server presented. Times out after `timeoutMs`.
 */
export function sftpUpload(
  target: SftpTarget,
  fileName: string,
  source: Readable,
  timeoutMs = 20_000,
): Promise<{ remote: string; hostKey: string }> {
  const remote = posix.join('/', target.directory || '/', fileName).replace(/^\/+/, '/');
  const partial = `${remote}.part`;
  return new Promise((resolve, reject) => {
    const client = new Client();
    let settled = false;
    let presented = '';
    let refused: DeliveryError | null = null;
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      client.end();
      if (error) reject(error instanceof DeliveryError ? error : new DeliveryError(error.message));
      else resolve({ remote, hostKey: presented });
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
      .on('error', (e) => finish(refused ?? new DeliveryError(`Could not reach the server: ${e.message}`)))
      .connect({
        host: target.host,
        port: target.port,
        username: target.username,
        password: target.password,
        readyTimeout: timeoutMs,
        timeout: timeoutMs,
        // Checked before authentication: a server with another key never sees the password.
        hostVerifier: (key: Buffer) => {
          presented = hostKeyFingerprint(key);
          if (target.hostKey === null || target.hostKey === presented) return true;
          refused = new DeliveryError(
            `The server's host key has changed (expected ${target.hostKey}, offered ${presented}); nothing was sent. ` +
              'If the server was re-keyed, an enterprise administrator trusts the new key.',
          );
          return false;
        },
      });
  });
}
