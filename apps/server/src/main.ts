import path from 'node:path';
import pg from 'pg';
import { buildApp } from './app';
import { loadConfig, ROLES, runs } from './config';
import { prepareModules } from './modules';
import { createSecretBox } from './platform/auth/secret-box';
import { sealPlainTotpSecrets } from './platform/auth/totp';
import { createDatabase } from './platform/db/client';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './platform/db/embedded';
import { applyMigrations } from './platform/db/migrate';
import { startWorkers } from './platform/jobs/workers';
import { DEMO_CONTROLLER, DEMO_LOGINS, databaseIsEmpty, seedDemo } from './seed/demo';

const EMBEDDED_DB_NAME = 'caredeck';

async function ensureDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!found.rowCount) await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function main() {
  const config = loadConfig();
  let embedded: EmbeddedDatabase | null = null;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    process.stdout.write(`Starting embedded PostgreSQL in ${path.resolve(config.DATA_DIR, 'pg')} …\n`);
    embedded = await startEmbeddedPostgres({
      dir: path.join(config.DATA_DIR, 'pg'),
      persistent: true,
      lockFile: path.join(config.DATA_DIR, 'caredeck.lock'),
      onLog: (line) => {
        if (line.startsWith('stopping the PostgreSQL')) process.stdout.write(`${line}\n`);
      },
    });
    databaseUrl = await ensureDatabase(embedded.url, EMBEDDED_DB_NAME);
  }
  const db = createDatabase(databaseUrl);
  const demo = !config.DATABASE_URL || config.DEMO;
  // Processes started together on one database (ADR 061) prepare it one after another.
  const seeded = await oneAtATime(databaseUrl, async () => {
    await applyMigrations(db);
    await prepareModules(db);
    await sealPlainTotpSecrets(db, createSecretBox(config.ENCRYPTION_KEY));
    if (!demo || !(await databaseIsEmpty(db))) return false;
    process.stdout.write('Seeding demo data …\n');
    await seedDemo(db, config.DEMO_PASSWORD);
    return true;
  });

  const { app } = await buildApp({ config, db });
  const workers = runs(config, 'worker') ? startWorkers({ db, config, log: app.log }) : null;
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const host = config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST;
  const lines = runs(config, 'api')
    ? [`\nCareDeck is running at http://${host}:${port}/`, `API docs: http://${host}:${port}/api/docs`]
    : [`\nCareDeck ${config.ROLE.join(' and ')} is running (health: http://${host}:${port}/healthz)`];
  if (config.ROLE.length < ROLES.length) lines.push(`Roles of this process: ${config.ROLE.join(', ')}`);
  const mqtt = app.deviceGateway.status();
  if (mqtt.port !== null)
    lines.push(
      `Device broker (MQTT): mqtt://${config.MQTT_HOST ?? host}:${mqtt.port}  (simulator: npm run simulate -- --help)`,
    );
  if (demo && runs(config, 'api')) {
    lines.push(
      `Demo logins (password ${config.DEMO_PASSWORD === 'CareDeck-demo-2026' ? 'CareDeck-demo-2026' : 'from DEMO_PASSWORD'}${seeded ? '' : ', if unchanged since seeding'}):`,
    );
    for (const l of DEMO_LOGINS) lines.push(`  ${l.email.padEnd(28)} ${l.role}`);
    lines.push(`  ${DEMO_CONTROLLER.email.padEnd(28)} controller area (/controller)`);
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 20_000);
    force.unref();
    try {
      await app.close(); // stops accepting, lets in-flight requests finish, closes sockets
      await workers?.stop();
      await db.$client.end();
      await embedded?.stop();
      process.exit(0);
    } catch (err) {
      process.stderr.write(`shutdown failed: ${(err as Error).message}\n`);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/** Runs `work` holding a session lock of the database, so that processes starting together take turns. */
async function oneAtATime<T>(databaseUrl: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(727275)');
    return await work();
  } finally {
    await client.end();
  }
}

/** One line a person can act on, never a stack trace (it can also quote data). */
function failedToStart(err: unknown): never {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`CareDeck failed to start: ${message.split('\n').filter(Boolean).join(' ')}\n`);
  process.exit(1);
}

process.on('unhandledRejection', failedToStart);
main().then(() => process.off('unhandledRejection', failedToStart), failedToStart);
