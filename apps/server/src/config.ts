import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { dataDirSecrets, type ServerSecrets, weakSecretReason } from './platform/auth/keys';

/** What a process can do (ADR 061): serve the API, run the background jobs, ingest device events. */
export const ROLES = ['api', 'worker', 'gateway'] as const;
export type Role = (typeof ROLES)[number];
/** Whether this process has the role (every role when ROLE is unset). */
export const runs = (config: Pick<Config, 'ROLE'>, role: Role): boolean => config.ROLE.includes(role);

const bool = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true');

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().default('127.0.0.1'),
    DATA_DIR: z.string().default('.data'),
    DATABASE_URL: z.string().url().optional(),
    /** Where uploaded files are stored (messenger attachments …); default DATA_DIR/files. Never under a web root. */
    FILES_DIR: z.string().optional(),
    /**
     * An S3-compatible object store for uploaded files instead of FILES_DIR (AWS S3, MinIO, Ceph …):
     * S3_URL is the endpoint with the bucket as its path (https://s3.eu-central-1.amazonaws.com/caredeck-files),
     * path-style addressing; credentials in S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY.
     */
    S3_URL: z.string().url().optional(),
    S3_REGION: z.string().default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    /** The console's address as people outside reach it (links in texts and e-mails); default http://HOST:PORT. */
    PUBLIC_URL: z.string().url().optional(),
    /** An SMS provider's HTTP API (https://user:secret@api.example.com/messages); unset: the log transport. */
    SMS_PROVIDER_URL: z.string().url().optional(),
    SMS_FROM: z.string().default('CareDeck'),
    /** The secret the provider signs its webhooks (inbound texts, delivery reports) with; unset: webhooks refused. */
    SMS_WEBHOOK_SECRET: z.string().min(16).optional(),
    /** How often the SMS outbox is delivered, in ms (0: only when asked, as tests do). */
    SMS_DELIVERY_MS: z.coerce.number().int().min(0).max(600_000).default(2_000),
    /** How often due patient reminders are sent, in ms (0: only when asked, as tests do). */
    REMINDERS_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
    /** How often queued reports are generated and delivered (0: never; tests run them by hand). */
    REPORTS_MS: z.coerce.number().int().min(0).max(600_000).default(2_000),
    /** How often queued FHIR Bulk Data exports are run and expired ones deleted (ADR 079; 0: never). */
    FHIR_EXPORT_MS: z.coerce.number().int().min(0).max(600_000).default(2_000),
    /**
     * How often the adherence rollup job settles closed windows and rolls up stale patients (ADR 046; 0:
     * never, tests run it by hand). The KPI is exact either way; the longer the gap, the more it classifies live.
     */
    ADHERENCE_ROLLUP_MS: z.coerce.number().int().min(0).max(600_000).default(2_000),
    /**
     * Population figures (KPI, alert analytics, staff summary) of programs with at least this many patients are
     * served from a result at most POPULATION_CACHE_FRESH_MS old (ADR 077); smaller programs compute every time.
     */
    POPULATION_CACHE_MIN_PATIENTS: z.coerce.number().int().min(0).max(100_000_000).default(5_000),
    /** How old a cached population figure may be before the next request computes it again (0: never cached). */
    POPULATION_CACHE_FRESH_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
    /** How long a guest link to a conversation stays valid, in hours. */
    GUEST_LINK_HOURS: z.coerce.number().int().min(1).max(720).default(72),
    /** Largest file one may attach to a message, in MB. */
    MESSENGER_MAX_FILE_MB: z.coerce.number().int().min(1).max(500).default(25),
    REDIS_URL: z.string().url().optional(),
    DEMO: bool,
    DEMO_PASSWORD: z.string().min(8).default('CareDeck-demo-2026'),
    /** HS256 key of access and challenge tokens; unset outside production: the data directory's key file. */
    JWT_SECRET: z.string().optional(),
    /** Key of the secrets encrypted at rest (TOTP seeds); unset outside production: the key file. */
    ENCRYPTION_KEY: z.string().optional(),
    ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(600),
    REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(90).default(14),
    IDLE_TIMEOUT_SECONDS: z.coerce.number().int().min(10).max(86_400).default(900),
    /** Absolute session lifetime: an active session still ends this long after sign-in. */
    SESSION_MAX_HOURS: z.coerce.number().int().min(1).max(720).default(12),
    /** How often each process re-checks the sessions of its open sockets (the longest a socket outlives its session). */
    REALTIME_SESSION_CHECK_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
    PASSWORD_MAX_AGE_DAYS: z.coerce.number().int().min(0).max(3650).default(90),
    INTERNAL_EMAIL_DOMAIN: z.string().min(1).default('caredeck.demo'),
    SMTP_URL: z.string().url().optional(),
    MAIL_FROM: z.string().default('CareDeck <no-reply@caredeck.local>'),
    COOKIE_SECURE: bool,
    /**
     * Behind reverse proxies: how many hops of X-Forwarded-For to trust (`1` or `true`: the one proxy in
     * front; `2`: two), or the proxies' addresses/CIDRs, comma-separated. Never the whole header: its
     * leftmost entries are whatever the client wrote.
     */
    TRUST_PROXY: z
      .string()
      .optional()
      .transform((v, ctx): false | number | string[] => {
        if (v === undefined || v === '0' || v === 'false') return false;
        if (v === 'true') return 1;
        if (/^[0-9]{1,2}$/.test(v)) return Number(v);
        const list = v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        if (list.every((s) => /^[0-9a-fA-F:.]+(\/[0-9]{1,3})?$/.test(s))) return list;
        ctx.addIssue({ code: 'custom', message: 'a hop count or a comma-separated list of proxy addresses' });
        return false;
      }),
    /**
     * The embedded MQTT broker's port (devices connect here); 0: any free port; -1: no embedded broker.
     * 1884 by default so it never collides with a system broker on 1883.
     */
    MQTT_PORT: z.coerce.number().int().min(-1).max(65535).default(1884),
    /**
     * An external broker (Mosquitto, EMQX) instead of the embedded one: the gateway subscribes to it with a
     * persistent session (docs/devices.md). `mqtt://user:password@host:1883`.
     */
    MQTT_URL: z.string().url().optional(),
    /** The gateway's client id at the external broker (one persistent session per id). */
    MQTT_CLIENT_ID: z.string().min(1).max(64).default('caredeck-gateway'),
    /**
     * The shared subscription group the gateways of one deployment share the devices' events in
     * (`$share/{group}/devices/+/events`): deployments on one broker need a group each.
     */
    MQTT_SHARE_GROUP: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - (up to 64)')
      .default('caredeck'),
    /** The address the embedded broker listens on (default: HOST). */
    MQTT_HOST: z.string().optional(),
    /** Device events written per batch, and the longest an event waits for its batch (DESIGN §5). */
    INGEST_BATCH_SIZE: z.coerce.number().int().min(1).max(20_000).default(2000),
    INGEST_BATCH_WAIT_MS: z.coerce.number().int().min(0).max(1000).default(20),
    /** Batches written at the same time (each owns a share of the devices). */
    INGEST_LANES: z.coerce.number().int().min(1).max(16).default(2),
    /**
     * The alert engine (docs/alerts.md): how often absence-type alerts (disconnected dispensers, missed
     * readings, low pods, missed doses, low adherence) and escalation timers are swept (0: never, tests
     * sweep by hand), and how long readings gather before their patients' vitals are evaluated.
     */
    ALERT_SWEEP_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
    ALERT_EVALUATE_WAIT_MS: z.coerce.number().int().min(0).max(10_000).default(200),
    /**
     * Vendors that deliver device events by HTTPS webhook, with the secret each signs with (HMAC-SHA256):
     * `vendor=secret,vendor2=secret2`. A vendor not listed has no webhook (404).
     */
    WEBHOOK_SECRETS: z
      .string()
      .optional()
      .transform((v, ctx) => {
        const out: Record<string, string> = {};
        for (const pair of (v ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)) {
          const [vendor, ...rest] = pair.split('=');
          const secret = rest.join('=');
          if (!vendor || !/^[a-z0-9_-]{1,40}$/.test(vendor) || secret.length < 16) {
            ctx.addIssue({
              code: 'custom',
              message: 'vendor=secret pairs, comma-separated; secrets of 16+ characters',
            });
            return {};
          }
          out[vendor] = secret;
        }
        return out;
      }),
    /** How long a command to a dispenser waits for the device's reply. */
    DEVICE_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /**
     * What this process does (ADR 061, docs/operations.md): `api` (HTTP and the console's sockets), `worker`
     * (the repeating jobs: alert sweep, adherence rollup, reminders, SMS, reports, mail, housekeeping),
     * `gateway` (device ingestion: the MQTT broker or the external broker's shared subscription, and the
     * vital-sign alerts of what it ingests); comma-separated. Default: all three in one process.
     */
    ROLE: z
      .string()
      .default(ROLES.join(','))
      .transform((v, ctx): Role[] => {
        const list = [
          ...new Set(
            v
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
          ),
        ];
        const unknown = list.filter((r) => !(ROLES as readonly string[]).includes(r));
        if (list.length === 0 || unknown.length > 0) {
          ctx.addIssue({ code: 'custom', message: `one or more of ${ROLES.join(', ')}, comma-separated` });
          return [...ROLES];
        }
        return ROLES.filter((r) => list.includes(r));
      }),
    WEB_DIST: z.string().optional(),
  })
  // A process that does not do everything works beside others: their events reach the console's sockets
  // through Redis only.
  .refine((c) => c.ROLE.length === ROLES.length || c.REDIS_URL, {
    message: 'a process with only some roles works beside others: REDIS_URL is needed to reach their sockets',
    path: ['REDIS_URL'],
  })
  .refine((c) => !c.S3_URL || (c.S3_ACCESS_KEY_ID && c.S3_SECRET_ACCESS_KEY), {
    message: 'S3_URL needs S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY',
    path: ['S3_URL'],
  });

type EnvConfig = z.infer<typeof envSchema>;
export type Config = Omit<EnvConfig, keyof ServerSecrets> & ServerSecrets;

function invalid(lines: string[]): Error {
  return new Error(`Invalid configuration:\n${lines.map((l) => `  ${l}`).join('\n')}`);
}

/**
 * The secrets: from the environment when set (checked for strength), else, outside production, the
 * data directory's key file (created on first start). No key ever comes from the source code.
 */
function checkedSecrets(config: EnvConfig): ServerSecrets {
  const problems: string[] = [];
  if (config.NODE_ENV === 'production') {
    // The log transport would print sign-in codes; demo data has published passwords.
    if (!config.SMTP_URL) problems.push('SMTP_URL: required in production (mail carries sign-in codes).');
    if (config.DEMO) problems.push('DEMO: demo data (published passwords) is refused in production.');
    if (!config.PUBLIC_URL)
      problems.push('PUBLIC_URL: required in production (guest invitations link to the console).');
  }
  for (const name of ['JWT_SECRET', 'ENCRYPTION_KEY'] as const) {
    const value = config[name];
    if (value === undefined) {
      if (config.NODE_ENV === 'production')
        problems.push(`${name}: required in production (32+ random characters).`);
      continue;
    }
    const reason = weakSecretReason(value);
    if (reason) problems.push(`${name}: ${reason}.`);
  }
  if (problems.length) throw invalid(problems);
  const fromFile = config.JWT_SECRET && config.ENCRYPTION_KEY ? null : dataDirSecrets(config.DATA_DIR);
  return {
    JWT_SECRET: config.JWT_SECRET ?? fromFile!.JWT_SECRET,
    ENCRYPTION_KEY: config.ENCRYPTION_KEY ?? fromFile!.ENCRYPTION_KEY,
  };
}

function parseEnv(env: NodeJS.ProcessEnv): EnvConfig {
  // An empty variable means "not set" (e.g. DATABASE_URL= to force the embedded database).
  const set = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(set);
  if (!parsed.success) throw invalid(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  return parsed.data;
}

/** Parses the environment once and resolves the secrets; fails fast with every problem listed. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const config = parseEnv(env);
  return { ...config, ...checkedSecrets(config) };
}

/** A configuration for tests: defaults, fresh random secrets, overrides; never the process environment. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    // No MQTT broker unless a test asks for one (MQTT_PORT: 0); alert sweeps run when a test calls them.
    ...parseEnv({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      MQTT_PORT: '-1',
      ALERT_SWEEP_MS: '0',
      SMS_DELIVERY_MS: '0',
      REMINDERS_MS: '0',
      REPORTS_MS: '0',
      FHIR_EXPORT_MS: '0',
      ADHERENCE_ROLLUP_MS: '0',
    }),
    JWT_SECRET: randomBytes(32).toString('base64url'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
    FILES_DIR: join(tmpdir(), `caredeck-test-files-${randomBytes(6).toString('hex')}`),
    ...overrides,
  };
}
