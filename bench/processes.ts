/** What the benches that start the product as its own processes share: ports, children, their output. */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import path from 'node:path';
import type { Database } from '../apps/server/src/platform/db/client';
import { given } from '../apps/server/src/seed/given';

export function intEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be an integer in [${min}, ${max}]`);
  return value;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Stops a child and waits for it; SIGKILL after 10 s. */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** A TypeScript script as its own process (tsx), stopped by the caller's clean-up list. */
export function spawnTsx(
  cwd: string,
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cleanups: (() => Promise<void>)[],
): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => stopChild(child));
  return child;
}

export function waitForLine(
  child: ChildProcess,
  pattern: RegExp,
  timeoutMs: number,
): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`timed out waiting for ${pattern}: ${out.slice(-500)}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = pattern.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        resolve(m);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} before ${pattern}: ${out.slice(-800)}`));
    });
  });
}

/** CPU time (user + system) of a process so far, in milliseconds, from /proc/<pid>/stat. */
export function processCpuMs(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Resident memory of a process now, in MiB, from /proc/<pid>/status. */
export function processRssMiB(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Whether something accepts TCP connections on the port. */
export function answers(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => done(true));
  });
}

/**
 * Dispensers the device generator speaks for: each with its own patient (New York time) and a twice-daily
 * regimen on the device, so that its dose events resolve to doses as a real dispenser's do.
 */
export async function registerDispensers(
  db: Database,
  programId: number,
  count: number,
): Promise<{ id: number; serial: string; secret: string }[]> {
  const g = given(db);
  const devices: { id: number; serial: string; secret: string }[] = [];
  for (let i = 0; i < count; i++) {
    const patient = await g.patient({ programId, timeZone: 'America/New_York' });
    const device = await g.device({ programId, patientId: patient.id, kind: 'dispenser', dispenserType: 1 });
    await g.regimen({
      patientId: patient.id,
      programId,
      times: ['08:00', '20:00'],
      deviceSerial: device.serial,
    });
    devices.push({ id: device.id, serial: device.serial, secret: device.secret });
  }
  return devices;
}

/** The mosquitto binary of this machine, if any. */
export const mosquittoBinary = (): string | undefined =>
  ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((p) => existsSync(p));

/**
 * A Mosquitto of the bench's own on a free port, with the production limits of docs/devices.md (Debian's
 * defaults drop messages past 1,000 queued for a session); answers its process and URL once it listens.
 */
export async function startMosquitto(
  binary: string,
  dir: string,
): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const conf = path.join(dir, 'mosquitto.conf');
  writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'persistence false',
      'max_inflight_messages 0',
      'max_queued_messages 1000000',
      'max_queued_bytes 0',
      '',
    ].join('\n'),
  );
  const child = spawn(binary, ['-c', conf], { stdio: 'ignore' });
  for (let i = 0; i < 50 && !(await answers(port)); i++) await new Promise((r) => setTimeout(r, 100));
  return { child, url: `mqtt://127.0.0.1:${port}` };
}
