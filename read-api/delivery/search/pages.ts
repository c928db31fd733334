import type { DeliveryQuery, JoinFilter, SortKey, WhereNode } from '../../../projections/delivery-query.js';
import { effectiveSort } from '../../../projections/delivery-query.js';
import { cursorOf } from '../../../projections/delivery-query-eval.js';
import type { DeliveryDoc, SearchIndex, StoredDoc } from '../../../projections/ports.js';
import { decodeCursor, encodeCursor } from '../query/cursor.js';
import { invalid } from './body-schema.js';

/** One page of search results and the cursors around it (opaque strings, or null at an end). */
export type ResultPage = { readonly docs: readonly DeliveryDoc[]; readonly next: string | null; readonly previous: string | null };

/** The same with each payload as its stored JSON text. */
export type StoredResultPage = { readonly docs: readonly StoredDoc[]; readonly next: string | null; readonly previous: string | null };

/** `offset`: results skipped before a first page (without a cursor). */
export type PageAsk = { readonly limit: number; readonly next?: string; readonly previous?: string; readonly offset?: number };

export type Filter = {
  readonly where?: WhereNode;
  /** Joined collections the documents must reach (docs/decisions/0046). */
  readonly joins?: readonly JoinFilter[];
  readonly sort: readonly SortKey[];
  readonly owners: readonly string[] | null;
};

/**
 * Nothing ranked: the collection filtered by `where`, in `sort` order, keyset-paged inside the
 * index like a delivery list.
 */
export async function listPage(index: SearchIndex, env: string, folder: string, filter: Filter, ask: PageAsk): Promise<ResultPage> {
  const sort = effectiveSort({ sort: filter.sort });
  const skip = ask.offset ?? 0;
  const query: DeliveryQuery = {
    ...(filter.where ? { where: filter.where } : {}),
    ...(filter.joins ? { joins: filter.joins } : {}),
    sort: filter.sort,
    limit: ask.limit + skip,
    ...(filter.owners ? { owners: filter.owners } : {}),
    ...(ask.next !== undefined ? { after: decodeCursor(ask.next, 'next', sort) } : {}),
    ...(ask.previous !== undefined ? { before: decodeCursor(ask.previous, 'previous', sort) } : {}),
  };
  const page = await index.query(env, folder, query);
  const items = page.items.slice(skip);
  const hasMore = page.hasMore;
  const first = items[0];
  const last = items[items.length - 1];
  const backward = ask.previous !== undefined;
  return {
    docs: items,
    next: last && (backward || hasMore) ? encodeCursor(cursorOf(last, sort), sort) : null,
    previous: first && (backward ? hasMore : ask.next !== undefined || skip > 0) ? encodeCursor(cursorOf(first, sort), sort) : null,
  };
}

/** A ranked search's cursor: how many results of the same request came before the page. */
const encodeOffset = (offset: number): string => Buffer.from(JSON.stringify({ o: offset })).toString('base64url');

function decodeOffset(value: string, name: string): number {
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as { o?: unknown };
    if (Number.isSafeInteger(parsed.o) && (parsed.o as number) >= 0) return parsed.o as number;
  } catch {
    // the 422 below
  }
  throw invalid({ [name]: ['is not a cursor of this search'] });
}

/**
 * Ranked keys (best first, at most a bounded number): those the filter keeps, in rank order or,
 * with `sort`, in sort order, paged by offset. Without filter or sort only the page's documents
 * are loaded.
 */
/** Where a ranked page starts in the result list. */
export const rankedStart = (ask: PageAsk): number =>
  ask.next !== undefined ? decodeOffset(ask.next, 'next') : ask.previous !== undefined ? Math.max(0, decodeOffset(ask.previous, 'previous') - ask.limit) : (ask.offset ?? 0);

/** Whether a ranked page needs only the ranked keys down to its end (nothing filters or reorders them). */
export const unfiltered = (filter: Filter): boolean => !filter.where && !filter.joins && filter.sort.length === 0 && !filter.owners;

/** Where a ranked page starts and how many results it holds. */
function rankedSpan(ask: PageAsk): { start: number; size: number } {
  const start = rankedStart(ask);
  // A previous page ends where the page it was asked from starts (after an `offset`, it can be shorter than the limit).
  const size = ask.previous !== undefined ? Math.max(1, Math.min(ask.limit, decodeOffset(ask.previous, 'previous') - start)) : ask.limit;
  return { start, size };
}

/** The page of a window read from `start` with one result more than `size` when more follow. */
function windowPage<T>(window: readonly T[], start: number, size: number): { docs: readonly T[]; next: string | null; previous: string | null } {
  return {
    docs: window.slice(0, size),
    next: window.length > size ? encodeOffset(start + size) : null,
    previous: start > 0 ? encodeOffset(start) : null,
  };
}

/** The documents `load` finds for the keys from `start` (one more than `size`), in rank order. */
async function rankedWindow<T extends { readonly key: string }>(ranked: readonly string[], start: number, size: number, load: (keys: readonly string[]) => Promise<T[]>): Promise<T[]> {
  const wanted = ranked.slice(start, start + size + 1);
  const byKey = new Map((await load(wanted)).map((doc) => [doc.key, doc]));
  return wanted.map((key) => byKey.get(key)).filter((doc): doc is T => doc !== undefined);
}

/**
 * The page of a ranked search that nothing filters or reorders, each payload as its stored JSON
 * text (docs/decisions/0235, 0260), from an index that can read them so.
 */
export async function rankedStoredPage(
  index: Required<Pick<SearchIndex, 'docsStoredByKeys'>>,
  env: string,
  folder: string,
  ranked: { readonly keys: readonly string[]; readonly rowids: readonly number[] | null },
  ask: PageAsk,
): Promise<StoredResultPage> {
  const { start, size } = rankedSpan(ask);
  // With the search's row ids the page is read by them (docs/decisions/0256).
  const rowids = ranked.rowids?.slice(start, start + size + 1);
  return windowPage(await rankedWindow(ranked.keys, start, size, (keys) => index.docsStoredByKeys(env, folder, keys, rowids)), start, size);
}

export async function rankedPage(index: SearchIndex, env: string, folder: string, ranked: readonly string[], filter: Filter, ask: PageAsk): Promise<ResultPage> {
  const { start, size } = rankedSpan(ask);
  let window: DeliveryDoc[];
  if (unfiltered(filter)) {
    window = await rankedWindow(ranked, start, size, (keys) => index.docsByKeys(env, folder, keys));
  } else if (ranked.length === 0) {
    window = [];
  } else {
    const keyed: WhereNode = { kind: 'condition', field: { scope: 'sys', name: 'key' }, op: 'in', value: [...ranked] };
    const where: WhereNode = filter.where ? { kind: 'all_of', items: [filter.where, keyed] } : keyed;
    const { items } = await index.query(env, folder, { where, sort: filter.sort, limit: ranked.length, ...(filter.joins ? { joins: filter.joins } : {}), ...(filter.owners ? { owners: filter.owners } : {}) });
    const rank = new Map(ranked.map((key, i) => [key, i]));
    const ordered = filter.sort.length > 0 ? items : [...items].sort((a, b) => rank.get(a.key)! - rank.get(b.key)!);
    window = ordered.slice(start, start + size + 1);
  }
  return windowPage(window, start, size);
}
