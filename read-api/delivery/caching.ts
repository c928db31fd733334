import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { rememberServed } from './served-cache.js';

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
  const bytes = JSON.stringify(body);
  const etag = etagOf(bytes);
  const surrogateKeys = [...new Set(keys)];
  res.set('ETag', etag);
  res.set(SURROGATE_KEY, surrogateKeys.join(' '));
  rememberServed(req, { body: Buffer.from(bytes), etag, surrogateKeys: surrogateKeys.join(' ') }, surrogateKeys);
  if (notModified(req.get('if-none-match'), etag)) {
    res.status(304).end();
    return;
  }
  res.type('application/json').send(bytes);
}
