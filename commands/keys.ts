import { randomFillSync } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Random bytes drawn from the system's generator 4 KiB at a time: one call to it per key cost
 * a system call for each create (docs/decisions/0216). Each byte is used once.
 */
const pool = Buffer.alloc(4096);
let used = pool.length;

function take(length: number): number {
  if (used + length > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const at = used;
  used += length;
  return at;
}

/** A short opaque key, like the product's (`6b4qd369sl2x`): 12 characters of a-z0-9. */
export function newKey(length = 12): string {
  if (length > pool.length) throw new RangeError(`a key of at most ${pool.length} characters`);
  const at = take(length);
  let key = '';
  for (let i = at; i < at + length; i++) key += ALPHABET[pool[i]! % ALPHABET.length];
  return key;
}

/** What newKey() makes with the default length: how a revision key in If-Match is recognised. */
export const KEY_PATTERN = /^[a-z0-9]{12}$/;
