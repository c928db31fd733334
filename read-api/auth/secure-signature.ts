import { createHash, createPublicKey, ECDH, verify } from 'node:crypto';

/**
 * The Secure scheme: ECDSA P-256 / SHA-256 over `<path>|<sha256 hex of the body>|<Date>`,
 * the signature DER-encoded and Base64, the public key a Base64 compressed point
 * (docs/decisions/0062).
 */

/** Signatures are accepted this long before and after the server's clock. */
export const WINDOW_MS = 15 * 60 * 1000;

/** `YYYY-MM-DDTHH:MM:SSZ`: UTC, whole seconds. */
const DATE_FORMAT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** The DER prefix of a P-256 SubjectPublicKeyInfo holding an uncompressed point. */
const SPKI_P256_PREFIX = Buffer.from('3059301306072a8648ce3d020106082a8648ce3d030107034200', 'hex');

export const bodyHash = (body: Buffer | undefined): string => createHash('sha256').update(body ?? Buffer.alloc(0)).digest('hex');

export const signedString = (path: string, body: Buffer | undefined, date: string): string => `${path}|${bodyHash(body)}|${date}`;

/** The milliseconds of a `Date` value in the accepted format, or null. */
export function timestampOf(date: string | undefined): number | null {
  if (date === undefined || !DATE_FORMAT.test(date)) return null;
  const ms = Date.parse(date);
  return Number.isNaN(ms) ? null : ms;
}

export const withinWindow = (ms: number, now: number): boolean => Math.abs(now - ms) <= WINDOW_MS;

/** A Base64 compressed P-256 point as a verifying key, or null when it is not one. */
function publicKeyOf(compressedBase64: string) {
  try {
    const point = Buffer.from(compressedBase64, 'base64');
    if (point.length !== 33) return null;
    const uncompressed = ECDH.convertKey(point, 'prime256v1', undefined, undefined, 'uncompressed') as Buffer;
    return createPublicKey({ key: Buffer.concat([SPKI_P256_PREFIX, uncompressed]), format: 'der', type: 'spki' });
  } catch {
    return null;
  }
}

/**
 * The `r` half of a DER ECDSA signature, hex: what identifies a signature for replay
 * protection (`s` can be negated into another valid encoding of the same signature).
 */
export function signatureId(signature: Buffer): string | null {
  if (signature.length < 8 || signature[0] !== 0x30 || signature[2] !== 0x02) return null;
  const length = signature[3] as number;
  if (4 + length > signature.length) return null;
  return signature.subarray(4, 4 + length).toString('hex');
}

/** Whether `signatureBase64` signs `data` with the key. */
export function verifySignature(publicKeyBase64: string, data: string, signatureBase64: string): boolean {
  const key = publicKeyOf(publicKeyBase64);
  if (!key) return false;
  try {
    return verify('sha256', Buffer.from(data), { key, dsaEncoding: 'der' }, Buffer.from(signatureBase64, 'base64'));
  } catch {
    return false;
  }
}

/**
 * The record of used Secure signatures (docs/decisions/0335): kept where every process on the
 * same data sees it (a SQLite table in the data directory, or a MongoDB collection with a TTL
 * index), so neither a restart nor a second process reopens a signature's window.
 */
export type UsedSignatures = {
  /** Records `id` until `expiresAt`; false when it was recorded before and has not expired by `now`: a replay. */
  firstUse(id: string, expiresAt: number, now: number): Promise<boolean>;
  close(): Promise<void>;
};

/** How long a used signature is kept: past both edges of the clock window, after which its Date is refused anyway. */
export const KEPT_MS = 2 * WINDOW_MS;
