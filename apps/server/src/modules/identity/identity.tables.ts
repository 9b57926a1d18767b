import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** Staff users ("admins" in the spec's vocabulary). Patients live in their own table. */
export const admins = pgTable(
  'admins',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    email: text('email').notNull(),
    givenName: text('given_name').notNull(),
    familyName: text('family_name').notNull(),
    title: text('title'),
    about: text('about'),
    phoneNumber: text('phone_number'),
    picture: text('picture'),
    status: text('status').notNull().default('online'),
    passwordHash: text('password_hash').notNull(),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }).notNull().defaultNow(),
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    hipaaConsentedAt: timestamp('hipaa_consented_at', { withTimezone: true }),
    tz: text('tz'),
    language: text('language').notNull().default('en'),
    theme: text('theme').notNull().default('light'),
    mfaSecret: text('mfa_secret'),
    mfaEnabled: boolean('mfa_enabled').notNull().default(false),
    /** The last TOTP time step accepted: a code is good once (RFC 6238 §5.2). */
    mfaLastStep: bigint('mfa_last_step', { mode: 'number' }),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('admins_email_unique').on(sql`lower(${t.email})`),
    check('admins_language_check', sql`${t.language} IN ('en', 'de', 'fr', 'pt')`),
    check('admins_theme_check', sql`${t.theme} IN ('light', 'dark', 'semi-dark')`),
  ],
);

/** Controller-area accounts: their own realm, never staff. */
export const controllerAccounts = pgTable(
  'controller_accounts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('controller_accounts_email_unique').on(sql`lower(${t.email})`)],
);

/**
 * A signed-in session. Access tokens carry its id; every authenticated request checks it is
 * neither revoked nor idle past the configured time-out, and moves `last_activity_at`.
 */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** The id an access token carries: random (gen_random_uuid, 122 bits), so it cannot be guessed. */
    publicId: uuid('public_id').notNull().defaultRandom(),
    realm: text('realm').notNull(),
    adminId: bigint('admin_id', { mode: 'number' }).references(() => admins.id, { onDelete: 'cascade' }),
    controllerId: bigint('controller_id', { mode: 'number' }).references(() => controllerAccounts.id, {
      onDelete: 'cascade',
    }),
    scope: text('scope').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
  },
  (t) => [
    check('auth_sessions_realm_check', sql`${t.realm} IN ('staff', 'controller')`),
    check('auth_sessions_scope_check', sql`${t.scope} IN ('full', 'hipaa')`),
    check(
      'auth_sessions_owner_check',
      sql`(${t.realm} = 'staff' AND ${t.adminId} IS NOT NULL) OR (${t.realm} = 'controller' AND ${t.controllerId} IS NOT NULL)`,
    ),
    index('auth_sessions_admin_idx').on(t.adminId),
    uniqueIndex('auth_sessions_public_id_idx').on(t.publicId),
  ],
);

/** Rotating refresh tokens, stored as SHA-256 hashes. A used token presented again revokes its session. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    sessionId: bigint('session_id', { mode: 'number' })
      .notNull()
      .references(() => authSessions.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

/** One-time codes sent by e-mail (password reset, registration confirmation). Stored hashed. */
export const authCodes = pgTable(
  'auth_codes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    adminId: bigint('admin_id', { mode: 'number' })
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    /**
     * For a registration code: the attempt it confirms (given and family name, argon2id password hash),
     * so whoever confirms with the mailbox's code gets the password chosen with that code (issue 5 §5).
     */
    registration: jsonb('registration'),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('auth_codes_purpose_check', sql`${t.purpose} IN ('reset_password', 'confirm_registration')`),
    index('auth_codes_admin_purpose_idx').on(t.adminId, t.purpose, t.createdAt),
  ],
);

/** Attempts counted for rate limits (sign-in failures, code requests). Old rows are pruned. */
export const rateLimitEvents = pgTable(
  'rate_limit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    key: text('key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('rate_limit_events_key_ts_idx').on(t.key, t.createdAt)],
);

/** Sign-in and sign-out times per staff user (PUT /user/login_log, PUT logout_log/{id}). */
export const loginLogs = pgTable(
  'login_logs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    adminId: bigint('admin_id', { mode: 'number' })
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    sessionId: bigint('session_id', { mode: 'number' }),
    loginAt: timestamp('login_at', { withTimezone: true }).notNull().defaultNow(),
    logoutAt: timestamp('logout_at', { withTimezone: true }),
    ip: text('ip'),
    meta: jsonb('meta'),
  },
  (t) => [index('login_logs_admin_ts_idx').on(t.adminId, t.loginAt)],
);
