import type { Request } from 'express';
import { queryInt } from '../api/query.js';

export const MAX_LIMIT = 100;

export type PageParams = { readonly limit: number; readonly offset: number };

/** `limit` 1..100 (a larger value falls back to 100), `offset` from 0. */
export function pageParams(query: Record<string, unknown>): PageParams {
  const limit = Math.min(queryInt(query, 'limit', MAX_LIMIT, 1), MAX_LIMIT);
  return { limit, offset: queryInt(query, 'offset', 0) };
}

/** The full URL of this request with some query parameters replaced. */
export function urlWith(req: Request, changes: Record<string, string | null>): string {
  const url = new URL(req.originalUrl, `${req.protocol}://${req.get('host') ?? 'localhost'}`);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) url.searchParams.delete(name);
    else url.searchParams.set(name, value);
  }
  return url.toString();
}

export type Envelope<T> = { count: number; next: string | null; previous: string | null; results: T[] };

/** The management list envelope with working `next` / `previous` URLs. */
export function envelope<T>(req: Request, page: PageParams, count: number, results: T[]): Envelope<T> {
  const { limit, offset } = page;
  const next = offset + limit < count ? urlWith(req, { limit: String(limit), offset: String(offset + limit) }) : null;
  let previous: string | null = null;
  if (offset > 0) previous = offset - limit <= 0 ? urlWith(req, { limit: String(limit), offset: null }) : urlWith(req, { limit: String(limit), offset: String(offset - limit) });
  return { count, next, previous, results };
}
