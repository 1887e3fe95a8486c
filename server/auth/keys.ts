import { createHash, randomBytes } from 'node:crypto';

/** A new API key: 32 random bytes, base64url. Shown once, never stored. */
export function generateApiKey(): string {
  return randomBytes(32).toString('base64url');
}

/** What the store keeps of a key: its SHA-256, hex. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
