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

/** Digits before letters: the order SQLite's BINARY collation gives these characters. */
const SORTED = '0123456789abcdefghijklmnopqrstuvwxyz';
/** 8 digits of base 36 count 36^8 ms (about 89 years); Date.now() fits them until 2059, then wraps. */
const TIME_DIGITS = 8;
const TIME_RANGE = 36 ** TIME_DIGITS;
const RANDOM_DIGITS = 12 - TIME_DIGITS;

/** The millisecond of the last time-ordered key and the random ends drawn in it (no repeat within a process). */
let lastMs = 0;
let prefix = '';
const endsThisMs = new Set<string>();

/**
 * A key of the same format as newKey() (12 characters of a-z0-9) whose first 8 characters are
 * the time in milliseconds, in an alphabet that sorts as the numbers do, and its last 4 random
 * (docs/decisions/0306). Keys made one after the other sort one after the other, so the indexes
 * keyed by resource and revision keys grow at their end: a round of creates dirties a few pages
 * of each instead of a page per create. Within a process no key repeats (the random ends of the
 * current millisecond are remembered, and time never goes back); across processes two keys can
 * only meet in the same millisecond, once in 36^4 (1,679,616) pairs.
 */
export function newOrderedKey(): string {
  // A millisecond whose random ends are half taken (never at real rates) lends the next one.
  const now = Math.max(Date.now(), endsThisMs.size >= 36 ** RANDOM_DIGITS / 2 ? lastMs + 1 : lastMs);
  if (now !== lastMs || prefix === '') {
    lastMs = now;
    endsThisMs.clear();
    let n = now % TIME_RANGE;
    let digits = '';
    for (let i = 0; i < TIME_DIGITS; i++) {
      digits = SORTED[n % 36]! + digits;
      n = Math.floor(n / 36);
    }
    prefix = digits;
  }
  for (;;) {
    const end = newKey(RANDOM_DIGITS);
    if (endsThisMs.has(end)) continue;
    endsThisMs.add(end);
    return prefix + end;
  }
}

/** What newKey() makes with the default length: how a revision key in If-Match is recognised. */
export const KEY_PATTERN = /^[a-z0-9]{12}$/;
