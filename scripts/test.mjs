// `npm test`: install what is missing (npm packages, Debian's Chromium), then lint, type check,
// unit + server integration (real PostgreSQL) + component tests, the console build, and browser tests.
import { createConnection } from 'node:net';
import { ensureChromium, ensureDependencies, log, run } from './lib.mjs';

/** Uses the local Redis for the cross-process realtime test when one answers and none is configured. */
function redisAnswers(host = '127.0.0.1', port = 6379) {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}

/** An MQTT broker on this machine (Mosquitto) for the external-broker gateway tests. */
function portAnswers(host, port) {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => done(true));
  });
}

await ensureDependencies();
await ensureChromium();
const env = { ...process.env };
if (!env.REDIS_URL && (await redisAnswers())) {
  env.REDIS_URL = 'redis://127.0.0.1:6379';
  log('Redis answers on 127.0.0.1:6379: the cross-process realtime test will use it');
}

// The gateway's external-broker tests run against MQTT_URL when set, else a broker answering on 1883.
if (!env.TEST_MQTT_URL && env.MQTT_URL) env.TEST_MQTT_URL = env.MQTT_URL;
if (!env.TEST_MQTT_URL && (await portAnswers('127.0.0.1', 1883))) {
  env.TEST_MQTT_URL = 'mqtt://127.0.0.1:1883';
  log('An MQTT broker answers on 127.0.0.1:1883: the external-broker gateway tests will use it');
}

const steps = [
  ['lint', 'npx', ['biome', 'ci', '--error-on-warnings', '.']],
  ['type check', 'npm', ['run', 'typecheck']],
  ['unit, server integration and component tests', 'npx', ['vitest', 'run']],
  ['console build', 'npm', ['run', 'build', '-w', 'apps/web']],
  ['first-load budget', 'node', ['scripts/first-load.mjs']],
  ['browser tests', 'npm', ['run', 'e2e']],
];
let passed = 0;
let failed = 0;
for (const [name, command, args] of steps) {
  log(`${name} …`);
  const code = await run(command, args, { env });
  if (code === 0) passed++;
  else {
    failed++;
    log(`${name} FAILED (exit ${code})`);
    if (!process.env.CAREDECK_KEEP_GOING) break;
  }
}
log(failed === 0 ? 'all checks passed' : 'checks failed');
process.stdout.write(`steps: ${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
