// Helpers for the project scripts: plain Node, no dependencies (they run before `npm install`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export function log(message) {
  process.stdout.write(`\x1b[36m[caredeck]\x1b[0m ${message}\n`);
}

/** Runs a command with inherited output; resolves to its exit code. */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', () => resolve(127));
  });
}

export async function mustRun(command, args, options = {}) {
  const code = await run(command, args, options);
  if (code !== 0) {
    log(`failed (${code}): ${command} ${args.join(' ')}`);
    process.exit(code);
  }
}

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** Installs npm packages when node_modules is missing or older than the lock file. */
export async function ensureDependencies() {
  const marker = path.join(ROOT, 'node_modules', '.package-lock.json');
  const lock = path.join(ROOT, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  // `npm install`, not `npm ci`: lock files written through this registry mirror omit other platforms'
  // optional packages, which `npm ci` rejects as out of sync.
  log('installing npm packages …');
  await mustRun(NPM, ['install', '--no-audit', '--no-fund']);
}

/** Builds the console when its build is missing or older than its sources. */
export async function ensureWebBuild() {
  const built = path.join(ROOT, 'apps/web/dist/index.html');
  const sources = [
    'apps/web/src',
    'apps/web/index.html',
    'apps/web/vite.config.ts',
    'apps/web/public',
    'packages/contracts/src',
    'packages/domain/src',
  ];
  const newest = Math.max(...sources.map((s) => newestMtime(path.join(ROOT, s))));
  if (existsSync(built) && statSync(built).mtimeMs >= newest) return;
  log('building the console …');
  await mustRun(NPM, ['run', 'build', '-w', 'apps/web']);
}

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Debian packages the tests use besides Chromium: poppler renders label PDFs, zbar reads their barcodes back. */
const TEST_TOOLS = [
  { command: 'pdftoppm', pkg: 'poppler-utils' },
  { command: 'zbarimg', pkg: 'zbar-tools' },
];

/** Debian's Chromium for the browser tests, and the test tools above; installed with apt when running as root. */
export async function ensureChromium() {
  const tools = TEST_TOOLS.filter((t) => !commandExists(t.command)).map((t) => t.pkg);
  if (existsSync(CHROMIUM) && tools.length === 0) return;
  const packages = [...(existsSync(CHROMIUM) ? [] : ['chromium']), ...tools];
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    log(`Missing Debian packages: ${packages.join(', ')}: install them (or set CHROMIUM_PATH for Chromium).`);
    process.exit(1);
  }
  log(`installing ${packages.join(', ')} from Debian packages (apt-get) …`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await mustRun('apt-get', ['update'], { env });
  await mustRun('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { env });
}

export function commandExists(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}
