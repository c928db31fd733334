import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { rememberServed, type ServedAnswer } from './served-cache.js';

/** A strong validator of the exact bytes served: any change in what the answer depends on changes it. */
export const etagOf = (bytes: string | Buffer): string => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"`;

/** Whether `If-None-Match` names this ETag (weak comparison, as RFC 9110 asks for this header). */
export function notModified(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

export const SURROGATE_KEY = 'Surrogate-Key';

/**
 * Sends a delivery answer with its ETag and surrogate keys (the collection and resource keys
 * it holds, space-separated), or 304 when the client already has these bytes.
 */
export function sendCached(req: Request, res: Response, body: unknown, keys: Iterable<string>): void {
  sendCachedText(req, res, JSON.stringify(body), keys);
}

/** `sendCached` of an answer already serialized. */
export function sendCachedText(req: Request, res: Response, text: string, keys: Iterable<string>): void {
  const { answer, keys: surrogateKeys } = servedText(text, keys);
  res.set('ETag', answer.etag);
  res.set(SURROGATE_KEY, answer.surrogateKeys);
  rememberServed(req, answer, surrogateKeys);
  if (notModified(req.get('if-none-match'), answer.etag)) {
    res.status(304).end();
    return;
  }
  res.type('application/json').send(text);
}

/** The bytes of an answer (and their text) with their ETag and its distinct surrogate keys. */
export function servedAnswer(body: unknown, keys: Iterable<string>): { answer: ServedAnswer; keys: string[]; text: string } {
  return servedText(JSON.stringify(body), keys);
}

/** `servedAnswer` of an answer already serialized. */
export function servedText(text: string, keys: Iterable<string>): { answer: ServedAnswer; keys: string[]; text: string } {
  const bytes = Buffer.from(text);
  const surrogateKeys = [...new Set(keys)];
  return { answer: { body: bytes, etag: etagOf(bytes), surrogateKeys: surrogateKeys.join(' ') }, keys: surrogateKeys, text };
}
