import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import ssh2 from 'ssh2';
import { hostKeyFingerprint } from '../modules/reports/sftp';

const { Server, utils } = ssh2;
const { OPEN_MODE, STATUS_CODE } = utils.sftp;

export type TestSftpServer = {
  port: number;
  /** The fingerprint of the key the server presents (`SHA256:…`, as `ssh-keygen -lf` prints it). */
  hostKey: string;
  close(): Promise<void>;
};

/**
 * A real SFTP server over a real socket (ssh2's server side), writing into `root`: what report delivery is
 * tested against. It accepts one user and password and the calls an upload makes (open, write, close,
 * rename, remove).
 */
export async function startSftpServer(root: string, user: string, password: string): Promise<TestSftpServer> {
  const hostKey = utils.generateKeyPairSync('ed25519').private;
  const local = (remote: string) => join(root, normalize(`/${remote}`));
  const server = new Server({ hostKeys: [hostKey] }, (client) => {
    client
      .on('authentication', (ctx) => {
        if (ctx.method === 'password' && ctx.username === user && ctx.password === password) ctx.accept();
        else ctx.reject(['password']);
      })
      .on('ready', () => {
        client.on('session', (accept) => {
          const session = accept();
          session.on('sftp', (acceptSftp) => {
            const sftp = acceptSftp();
            const handles = new Map<number, number>();
            let next = 0;
            sftp
              .on('OPEN', (reqId, filename, flags) => {
                if (!(flags & OPEN_MODE.WRITE)) return sftp.status(reqId, STATUS_CODE.OP_UNSUPPORTED);
                try {
                  const fd = openSync(local(filename), 'w');
                  const id = next++;
                  handles.set(id, fd);
                  const handle = Buffer.alloc(4);
                  handle.writeUInt32BE(id, 0);
                  sftp.handle(reqId, handle);
                } catch {
                  sftp.status(reqId, STATUS_CODE.NO_SUCH_FILE);
                }
              })
              .on('WRITE', (reqId, handle, offset, data) => {
                const fd = handles.get(handle.readUInt32BE(0));
                if (fd === undefined) return sftp.status(reqId, STATUS_CODE.FAILURE);
                writeSync(fd, data, 0, data.length, offset);
                sftp.status(reqId, STATUS_CODE.OK);
              })
              .on('CLOSE', (reqId, handle) => {
                const id = handle.readUInt32BE(0);
                const fd = handles.get(id);
                if (fd !== undefined) closeSync(fd);
                handles.delete(id);
                sftp.status(reqId, STATUS_CODE.OK);
              })
              .on('RENAME', (reqId, from, to) => {
                try {
                  renameSync(local(from), local(to));
                  sftp.status(reqId, STATUS_CODE.OK);
                } catch {
                  sftp.status(reqId, STATUS_CODE.FAILURE);
                }
              })
              .on('REMOVE', (reqId, path) => {
                rmSync(local(path), { force: true });
                sftp.status(reqId, STATUS_CODE.OK);
              });
          });
        });
      })
      .on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const parsed = utils.parseKey(hostKey);
  if (parsed instanceof Error) throw parsed;
  return {
    port: (server.address() as AddressInfo).port,
    hostKey: hostKeyFingerprint(parsed.getPublicSSH()),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
