import { DomainError } from '../../domain/errors.js';
import type { ReadAnswer } from '../../api/delivery-ask.js';
import { effectiveSort, type DeliveryQuery } from '../../projections/delivery-query.js';
import { cursorOf } from '../../projections/delivery-query-eval.js';
import type { DeliveryDoc, Page, SearchIndex } from '../../projections/ports.js';
import { queryString } from '../../api/query.js';
import { shapeItem, surrogateKeys } from './item.js';
import { listText, parsedDoc, servesStoredPayloads } from './list-text.js';
import { requireMethod, servesData } from './methods.js';
import type { PopulateContext } from './populate.js';
import { decodeCursor, encodeCursor } from './query/cursor.js';
import { LIST_PARAMETERS, readOptions, refuseUnknownParameters } from './query/read-options.js';
import { parseSort } from './query/sort.js';
import { parseWhereParams } from './query/where.js';
import type { DeliveryApi, DeliveryRouting } from './routing.js';
import { ownersOf, type Match } from './scope.js';

export const MAX_LIMIT = 100;

function limitOf(query: Record<string, unknown>): number {
  const raw = queryString(query, 'limit');
  if (raw === undefined) return MAX_LIMIT;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    throw new DomainError('validation_error', 'Invalid query parameter limit.', { limit: ['must be an integer from 1 to 100'] });
  }
  return Math.min(Number(raw), MAX_LIMIT);
}

export type ListContext = {
  readonly env: string;
  readonly api: DeliveryApi;
  readonly match: Match;
  readonly index: SearchIndex;
  readonly routing: DeliveryRouting;
  /** Whether the reader may read a collection (its key's role; anonymous readers: every connected one). */
  readonly readable: (folder: string) => boolean;
};

/** What a list answer is computed from: the parsed query string and the request's own URL with some parameters replaced. */
export type ListAsk = {
  readonly query: Record<string, unknown>;
  readonly urlWith: (changes: Record<string, string | null>) => string;
};

export type ListBody = { limit: number; next: string | null; previous: string | null; results: unknown[] };

/**
 * `GET /{prefix}/{collection path}/`: one cursor page of the collection's published
 * documents, filtered (`where__<field>__<op>`), sorted and paged inside the SearchIndex, as
 * its JSON text and surrogate keys; throws the DomainError of a refusal.
 */
export async function listAnswer(ask: ListAsk, { env, api, match, index, routing, readable }: ListContext): Promise<ReadAnswer> {
  const { route } = match;
  requireMethod(route, 'get_many');
  const query = ask.query;
  refuseUnknownParameters(query, LIST_PARAMETERS, true);
  const model = routing.model(env);
  const collection = model.collections.get(route.folder);
  const withData = servesData(route);
  // Without get_one the content is not the reader's: data fields can neither be filtered, sorted nor selected.
  const catalog = withData ? (collection?.catalog ?? new Map()) : new Map();
  const options = readOptions(query, model.locales, catalog);
  const fields = { catalog, locale: options.searchLocale };
  const where = parseWhereParams(query, fields);
  const sort = effectiveSort({ sort: parseSort(queryString(query, 'sort'), fields) });
  const limit = limitOf(query);
  const next = queryString(query, 'next');
  const previous = queryString(query, 'previous');
  if (next !== undefined && previous !== undefined) {
    throw new DomainError('validation_error', 'next and previous cannot be combined.', { next: ['cannot be combined with previous'] });
  }
  const owners = await ownersOf(index, env, match);
  const request: DeliveryQuery = {
    where,
    sort,
    limit,
    ...(next !== undefined ? { after: decodeCursor(next, 'next', sort) } : {}),
    ...(previous !== undefined ? { before: decodeCursor(previous, 'previous', sort) } : {}),
    ...(owners === null ? {} : { owners }),
  };
  const backward = request.before !== undefined;
  const cursor = (name: 'next' | 'previous', at: DeliveryDoc | undefined) =>
    at ? ask.urlWith({ limit: String(limit), next: null, previous: null, [name]: encodeCursor(cursorOf(at, sort), sort) }) : null;
  const headOf = (first: DeliveryDoc | undefined, last: DeliveryDoc | undefined, hasMore: boolean) => ({
    limit,
    next: backward || hasMore ? cursor('next', last) : null,
    previous: (backward ? hasMore : request.after !== undefined) ? cursor('previous', first) : null,
  });
  const ctx: PopulateContext = { env, api, model, index, options, seen: new Map(), readable };
  let page: Page;
  if (index.queryStored && servesStoredPayloads(withData, collection, options)) {
    const stored = await index.queryStored(env, route.folder, request);
    // A cursor reads the payload only when the page is sorted by a data field.
    const byData = sort.some((key) => key.field.scope !== 'sys');
    const ends = [stored.items[0], stored.items[stored.items.length - 1]].map((doc) => (doc ? parsedDoc(doc, byData) : undefined));
    // Without populate no document but the page's own is read: the surrogate keys are the general path's.
    const text = listText(headOf(ends[0], ends[1], stored.hasMore), stored.items);
    if (text !== undefined) return { text, keys: surrogateKeys(route.folder, stored.items, ctx) };
    page = { items: stored.items.map((doc) => parsedDoc(doc)), hasMore: stored.hasMore };
  } else page = await index.query(env, route.folder, request);
  const { items, hasMore } = page;
  const head = headOf(items[0], items[items.length - 1], hasMore);
  const results = [];
  for (const doc of items) results.push(await shapeItem(doc, withData, collection, ctx));
  const body: ListBody = { ...head, results };
  return { text: JSON.stringify(body), keys: surrogateKeys(route.folder, items, ctx) };
}
