// `npm run dev`: the API (restarted on change) on :8080 and Vite's dev server (hot reload, proxying
// /api and /socket.io to the API). Stops both on Ctrl-C.
import { spawn } from 'node:child_process';
import { ensureDependencies, log, ROOT } from './lib.mjs';

await ensureDependencies();
const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    stdio: 'inherit',
  }),
  spawn('npm', ['run', 'dev', '-w', 'apps/web'], { cwd: ROOT, stdio: 'inherit' }),
];
log('API on http://127.0.0.1:8080, console with hot reload at the Vite URL printed below');
const stop = (signal) => {
  for (const child of children) child.kill(signal);
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(signal));
for (const child of children) {
  child.on('exit', (code) => {
    stop('SIGTERM');
    process.exitCode = code ?? 0;
  });
}
