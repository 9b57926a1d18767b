// `npm start`: install what is missing, build the console, then run the API + console + workers
// (embedded PostgreSQL with demo data unless DATABASE_URL is set).
import { spawn } from 'node:child_process';
import { ensureDependencies, ensureWebBuild, log, ROOT } from './lib.mjs';

await ensureDependencies();
await ensureWebBuild();
log('starting CareDeck …');
const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: ROOT,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
