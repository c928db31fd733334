import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A short opaque key, like the product's (`6b4qd369sl2x`): 12 characters of a-z0-9. */
export function newKey(length = 12): string {
  const bytes = randomBytes(length);
  let key = '';
  for (const byte of bytes) key += ALPHABET[byte % ALPHABET.length];
  return key;
}

/** What newKey() makes with the default length: how a revision key in If-Match is recognised. */
export const KEY_PATTERN = /^[a-z0-9]{12}$/;
