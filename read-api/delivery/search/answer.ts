import { notFound } from '../../../domain/errors.js';
import type { Embedder } from '../../../projections/embedder.js';
import type { SearchIndex } from '../../../projections/ports.js';
import { queryString } from '../../../api/query.js';
import { ownersOf } from '../scope.js';
import { shapeItem } from '../item.js';
import type { ListContext } from '../list.js';
import { resultsText, servesStoredPayloads } from '../list-text.js';
import { requireMethod, servesData } from '../methods.js';
import type { PopulateContext } from '../populate.js';
import { readOptions, refuseUnknownParameters } from '../query/read-options.js';
import { parseSort } from '../query/sort.js';
import { parseJoin } from '../query/join.js';
import { parseWhereTree } from '../query/where.js';
import { invalid } from './body-schema.js';
import { listPage, rankedPage, rankedStart, rankedStoredPage, unfiltered, type PageAsk } from './pages.js';
import { parseSearchRequest, type SearchRequest } from './request.js';
import { rankedHits, TEXT_CANDIDATES } from './run.js';

const MAX_LIMIT = 100;

function paging(query: Record<string, unknown>, request: SearchRequest): PageAsk {
  const raw = queryString(query, 'limit');
  if (raw !== undefined && !/^[1-9]\d{0,8}$/.test(raw)) throw invalid({ limit: ['must be an integer from 1'] });
  const limit = request.limit ?? Math.min(raw === undefined ? MAX_LIMIT : Number(raw), MAX_LIMIT);
  const next = queryString(query, 'next');
  const previous = queryString(query, 'previous');
  if (next !== undefined && previous !== undefined) throw invalid({ next: ['cannot be combined with previous'] });
  const cursor = next !== undefined || previous !== undefined;
  return { limit, ...(next !== undefined ? { next } : {}), ...(previous !== undefined ? { previous } : {}), ...(!cursor && request.offset > 0 ? { offset: request.offset } : {}) };
}

export type SearchDeps = { readonly index: SearchIndex; readonly embedder: Embedder };

/** Query parameters of `_search` (the body holds the rest). */
export const SEARCH_PARAMETERS = ['limit', 'next', 'previous', 'search_locale', 'return_locales', 'fallback_locales', 'populate', 'truncate_text', 'raw'];

/** What a search answer is computed from: the parsed query string, the parsed body, and the request's own URL with some query parameters replaced. */
export type SearchAsk = {
  readonly query: Record<string, unknown>;
  readonly body: unknown;
  readonly urlWith: (changes: Record<string, string | null>) => string;
};

const str = JSON.stringify;

/**
 * `POST {prefix}/{collection path}/_search`: full text, vector, vector-boosted or hybrid search
 * over the published documents of a collection the connection lets the reader list, shaped as
 * list items are (localized, populated, narrowed to `fields`). The JSON text of the answer;
 * throws the DomainError of a refusal. A ranked page that nothing filters, reorders or reshapes is
 * written with each payload's stored JSON text spliced in, as list pages are (0235): the same bytes
 * as `JSON.stringify` of the general path's body.
 */
export async function searchAnswer(deps: SearchDeps, ask: SearchAsk, { env, api, match, routing, readable }: Omit<ListContext, 'index'>): Promise<string> {
  const { index, embedder } = deps;
  if (match.rest.length > 0) throw notFound('route_not_found', 'Route');
  const { route } = match;
  const folder = route.folder;
  requireMethod(route, 'get_many');
  const query = ask.query;
  refuseUnknownParameters(query, SEARCH_PARAMETERS, false);
  const fields = await index.searchFields(env, folder);
  const request = parseSearchRequest(ask.body, fields);
  const paged = paging(query, request);
  const model = routing.model(env);
  const collection = model.collections.get(folder);
  const withData = servesData(route);
  // Without get_one the content is not the reader's: data fields can neither be filtered, sorted nor selected.
  const catalog = withData ? (collection?.catalog ?? new Map()) : new Map();
  const options = { ...readOptions(query, model.locales, catalog), fields: request.fields?.map((f) => f.split('.')) ?? null };
  const context = { catalog, locale: options.searchLocale };
  const { joins, aliases } = parseJoin(request.join, request.where, { api, model, catalog, locale: options.searchLocale, readable });
  const where = parseWhereTree(request.where, context, aliases);
  const sort = parseSort(request.sort ?? undefined, context);
  const owners = await ownersOf(index, env, match);
  const filter = { ...(where ? { where } : {}), ...(joins.length > 0 ? { joins } : {}), sort, owners };

  const depth = unfiltered(filter) && request.mode !== 'vector_boosted' ? rankedStart(paged) + paged.limit + 1 : TEXT_CANDIDATES;
  const hits = await rankedHits({ index, embedder, env, folder, locale: options.searchLocale }, request, depth);
  const ranked = hits?.keys ?? null;
  const cursor = (name: 'next' | 'previous', value: string | null) => (value === null ? null : ask.urlWith({ next: null, previous: null, [name]: value }));
  const metadata = { search_mode: request.mode, limit: paged.limit, vector_search_enabled: request.vector !== null };
  const docsStoredByKeys = index.docsStoredByKeys?.bind(index);
  if (hits !== null && unfiltered(filter) && docsStoredByKeys && servesStoredPayloads(withData, collection, options)) {
    const page = await rankedStoredPage({ docsStoredByKeys }, env, folder, hits, paged);
    const results = resultsText(page.docs);
    if (results !== undefined) {
      return `{"limit":${str(paged.limit)},"next":${str(cursor('next', page.next))},"previous":${str(cursor('previous', page.previous))},"results":[${results}],"metadata":${str(metadata)}}`;
    }
  }
  const page = ranked === null ? await listPage(index, env, folder, filter, paged) : await rankedPage(index, env, folder, ranked, filter, paged);
  const ctx: PopulateContext = { env, api, model, index, options, seen: new Map(), readable };
  const results = [];
  for (const doc of page.docs) results.push(await shapeItem(doc, withData, collection, ctx));
  return str({ limit: paged.limit, next: cursor('next', page.next), previous: cursor('previous', page.previous), results, metadata });
}
