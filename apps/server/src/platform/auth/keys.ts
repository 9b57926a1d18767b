import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Secrets that were once published (in this repository's history or docs): refused everywhere. */
export const PUBLISHED_SECRETS: readonly string[] = ['caredeck-demo-jwt-secret-change-me-in-production-0001'];

export const KEY_FILE_NAME = 'caredeck-keys.json';

export type ServerSecrets = { JWT_SECRET: string; ENCRYPTION_KEY: string };

/** Why a configured secret is unusable, or null when it is fine. */
export function weakSecretReason(value: string): string | null {
  if (value.length < 32) return 'must be at least 32 characters';
  if (PUBLISHED_SECRETS.includes(value)) return 'is a published secret; choose a random one';
  if (new Set(value).size < 12) return 'is too repetitive; use at least 32 random characters';
  return null;
}

function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The signing and encryption keys kept with the data: `DATA_DIR/caredeck-keys.json`, mode 0600, written
 * once on first start. Created exclusively (`wx`), so two processes starting together agree on one file.
 */
export function dataDirSecrets(dataDir: string): ServerSecrets {
  const file = path.resolve(dataDir, KEY_FILE_NAME);
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    writeFileSync(file, `${JSON.stringify({ JWT_SECRET: newSecret(), ENCRYPTION_KEY: newSecret() })}\n`, {
      flag: 'wx',
      mode: 0o600,
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  chmodSync(file, 0o600);
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<ServerSecrets>;
  if (typeof parsed.JWT_SECRET !== 'string' || typeof parsed.ENCRYPTION_KEY !== 'string') {
    throw new Error(`${file} is damaged: restore it from a backup (sessions and MFA secrets depend on it).`);
  }
  return { JWT_SECRET: parsed.JWT_SECRET, ENCRYPTION_KEY: parsed.ENCRYPTION_KEY };
}
