import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/**
 * Authenticated encryption (AES-256-GCM) of small secrets kept in the database, such as TOTP seeds.
 * Each value is bound to a context (e.g. `mfa:42`) through the additional data, so a sealed value
 * copied to another row or purpose does not open. Format: `v1.<iv>.<ciphertext>.<tag>` (base64url).
 */
export type SecretBox = {
  seal(plaintext: string, context: string): string;
  /** The plaintext, or null when the value is not sealed with this key for this context. */
  open(sealed: string, context: string): string | null;
};

export function isSealed(value: string): boolean {
  return value.startsWith(`${VERSION}.`);
}

export function createSecretBox(keyMaterial: string): SecretBox {
  // The configured key is text of at least 32 characters: derive exactly 32 bytes from it.
  const key = createHash('sha256').update(`caredeck:secret-box:${keyMaterial}`).digest();
  return {
    seal(plaintext, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv, body, cipher.getAuthTag()]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed, context) {
      const [version, iv, body, tag] = sealed.split('.');
      if (version !== VERSION || !iv || body === undefined || !tag) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(Buffer.from(context));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        return null;
      }
    },
  };
}
