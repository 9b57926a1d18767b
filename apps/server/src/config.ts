import { z } from 'zod';

const bool = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true');

/** Secrets that ship with the demo; production refuses to start with any of them. */
export const DEMO_JWT_SECRET = 'caredeck-demo-jwt-secret-change-me-in-production-0001';

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('.data'),
  DATABASE_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
  DEMO: bool,
  DEMO_PASSWORD: z.string().min(8).default('CareDeck-demo-2026'),
  JWT_SECRET: z.string().min(32).default(DEMO_JWT_SECRET),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(600),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(90).default(14),
  IDLE_TIMEOUT_SECONDS: z.coerce.number().int().min(10).max(86_400).default(900),
  /** Absolute session lifetime: an active session still ends this long after sign-in. */
  SESSION_MAX_HOURS: z.coerce.number().int().min(1).max(720).default(12),
  PASSWORD_MAX_AGE_DAYS: z.coerce.number().int().min(0).max(3650).default(90),
  INTERNAL_EMAIL_DOMAIN: z.string().min(1).default('caredeck.demo'),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('CareDeck <no-reply@caredeck.local>'),
  COOKIE_SECURE: bool,
  /** Behind a reverse proxy: trust X-Forwarded-For so rate limits and audit see the client's address. */
  TRUST_PROXY: bool,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
});

export type Config = z.infer<typeof envSchema>;

/** Parses the environment once; fails fast with every problem listed. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set" (e.g. DATABASE_URL= to force the embedded database).
  const set = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(set);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  if (config.NODE_ENV === 'production' && config.JWT_SECRET === DEMO_JWT_SECRET) {
    throw new Error(
      'Invalid configuration:\n  JWT_SECRET: production refuses to start with the demo secret.',
    );
  }
  return config;
}

/** A configuration for tests: defaults plus overrides, never read from the process environment. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }), ...overrides };
}
