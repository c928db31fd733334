import { createHash } from 'node:crypto';
import type { ReadAnswer } from '../../api/delivery-ask.js';
import type { ServedAnswer } from './served-cache.js';

/** A strong validator of the exact bytes served: any change in what the answer depends on changes it. */
export const etagOf = (bytes: string | Buffer): string => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"`;

/** Whether `If-None-Match` names this ETag (weak comparison, as RFC 9110 asks for this header). */
export function notModified(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

export const SURROGATE_KEY = 'Surrogate-Key';

/** A read answer as it is served and remembered: its bytes, their ETag and its distinct surrogate keys. */
export function servedText({ text, keys }: ReadAnswer): { answer: ServedAnswer; keys: string[] } {
  const bytes = Buffer.from(text);
  const surrogateKeys = [...new Set(keys)];
  return { answer: { body: bytes, etag: etagOf(bytes), surrogateKeys: surrogateKeys.join(' ') }, keys: surrogateKeys };
}

/** The JSON text of a body and the surrogate keys of an answer. */
export const readAnswer = (body: unknown, keys: Iterable<string>): ReadAnswer => ({ text: JSON.stringify(body), keys });
