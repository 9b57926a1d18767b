// The server the browser tests run against: the real console on a fresh embedded database with
// the demo data, in a temporary directory that is removed when the server stops.
// Each Playwright worker starts one (e2e/tests/fixtures.ts) with its slot in E2E_SLOT, its own PORT and MQTT_PORT.
// Its output is also appended to e2e/test-results/server-<slot>.log: Playwright empties the folder when a run
// starts, and a worker that restarts after a failure starts a new server on its slot, so the failed one's log is
// kept above the new one's. Without SMTP_URL the server writes each e-mail to DATA_DIR/mail/<name>.json;
// e2e/test-results/mail-<slot> links there, and the tests read the codes, links and temporary passwords of the
// mails from it (e2e/tests/helpers.ts).
import { spawn } from 'node:child_process';
import { chmodSync, createWriteStream, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './lib.mjs';

const SLOT = process.env.E2E_SLOT ?? '0';
const SERVER_LOG = path.join(ROOT, 'e2e', 'test-results', `server-${SLOT}.log`);
const MAIL_LINK = path.join(ROOT, 'e2e', 'test-results', `mail-${SLOT}`);

const dataDir = mkdtempSync(path.join(tmpdir(), 'caredeck-e2e-'));
// As root the embedded PostgreSQL runs as `postgres`, which must be able to enter the directory.
chmodSync(dataDir, 0o755);
mkdirSync(path.dirname(SERVER_LOG), { recursive: true });
const log = createWriteStream(SERVER_LOG, { flags: 'a' });
log.write(`--- server started ${new Date().toISOString()} (pid ${process.pid}) ---\n`);
rmSync(MAIL_LINK, { force: true });
symlinkSync(path.join(dataDir, 'mail'), MAIL_LINK);

const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: ROOT,
  stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', MQTT_URL: '' },
});
child.stdout.on('data', (chunk) => {
  log.write(chunk);
  process.stdout.write(chunk);
});
child.stderr.on('data', (chunk) => {
  log.write(chunk);
  process.stderr.write(chunk);
});

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
// 'close': after the child's output has been read to the end.
child.on('close', (code) => {
  rmSync(dataDir, { recursive: true, force: true });
  log.end(() => process.exit(code ?? 0));
});
