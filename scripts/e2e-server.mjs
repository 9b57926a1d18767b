// The server the browser tests run against: the real console on a fresh embedded database with
// the demo data, in a temporary directory that is removed when the server stops.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './lib.mjs';

const dataDir = mkdtempSync(path.join(tmpdir(), 'caredeck-e2e-'));
// As root the embedded PostgreSQL runs as `postgres`, which must be able to enter the directory.
chmodSync(dataDir, 0o755);
const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
