import { json, type ApiRequest, type ApiResult } from '../api/handler.js';
import { queryInt } from '../api/query.js';
import type { Doc, Filter, ReadCollection, Sort } from '../projections/ports.js';

export const MAX_LIMIT = 100;

export type PageParams = { readonly limit: number; readonly offset: number };

/** `limit` 1..100 (a larger value falls back to 100), `offset` from 0. */
export function pageParams(query: Readonly<Record<string, unknown>>): PageParams {
  const limit = Math.min(queryInt(query, 'limit', MAX_LIMIT, 1), MAX_LIMIT);
  return { limit, offset: queryInt(query, 'offset', 0) };
}

export type Envelope<T> = { count: number; next: string | null; previous: string | null; results: T[] };

/** The management list envelope with working `next` / `previous` URLs. */
export function envelope<T>(request: Pick<ApiRequest, 'urlWith'>, page: PageParams, count: number, results: T[]): Envelope<T> {
  const { limit, offset } = page;
  const next = offset + limit < count ? request.urlWith({ limit: String(limit), offset: String(offset + limit) }) : null;
  let previous: string | null = null;
  if (offset > 0) previous = request.urlWith({ limit: String(limit), offset: offset - limit <= 0 ? null : String(offset - limit) });
  return { count, next, previous, results };
}

/** The page the request asks for of the documents of `collection` that match `filter`, shaped by `view`, in the envelope. */
export async function listPage(
  request: ApiRequest,
  collection: ReadCollection,
  filter: Filter,
  sort: Sort,
  view: (doc: Doc) => unknown,
): Promise<ApiResult> {
  const page = pageParams(request.query);
  const [count, docs] = await Promise.all([collection.count(filter), collection.find(filter, { sort, skip: page.offset, limit: page.limit })]);
  return json(200, envelope(request, page, count, await Promise.all(docs.map(view))));
}
