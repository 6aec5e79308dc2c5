/** API key values: a fixed `qf_` prefix and 32 random bytes; only a SHA-256 hash is ever stored. */
import { createHash, randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'qf_';

export function generateKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
