import type { Request, Response } from 'express';
import { notFound } from '../../../domain/errors.js';
import type { Embedder } from '../../../projections/embedder.js';
import type { SearchIndex } from '../../../projections/ports.js';
import { urlWith } from '../../pagination.js';
import { queryString } from '../../query.js';
import { ownersOf } from '../scope.js';
import { shapeItem } from '../item.js';
import type { ListContext } from '../list.js';
import { requireMethod, servesData } from '../methods.js';
import type { PopulateContext } from '../populate.js';
import { readOptions, refuseUnknownParameters } from '../query/read-options.js';
import { parseSort } from '../query/sort.js';
import { parseJoin } from '../query/join.js';
import { parseWhereTree } from '../query/where.js';
import { invalid } from './body-schema.js';
import { listPage, rankedPage, rankedStart, unfiltered, type PageAsk } from './pages.js';
import { parseSearchRequest, type SearchRequest } from './request.js';
import { rankedKeys, TEXT_CANDIDATES } from './run.js';

const MAX_LIMIT = 100;

function paging(req: Request, request: SearchRequest): PageAsk {
  const raw = queryString(req.query, 'limit');
  if (raw !== undefined && !/^[1-9]\d{0,8}$/.test(raw)) throw invalid({ limit: ['must be an integer from 1'] });
  const limit = request.limit ?? Math.min(raw === undefined ? MAX_LIMIT : Number(raw), MAX_LIMIT);
  const next = queryString(req.query, 'next');
  const previous = queryString(req.query, 'previous');
  if (next !== undefined && previous !== undefined) throw invalid({ next: ['cannot be combined with previous'] });
  return { limit, ...(next !== undefined ? { next } : {}), ...(previous !== undefined ? { previous } : {}) };
}

export type SearchDeps = { readonly index: SearchIndex; readonly embedder: Embedder };

/** Query parameters of `_search` (the body holds the rest). */
export const SEARCH_PARAMETERS = ['limit', 'next', 'previous', 'search_locale', 'return_locales', 'fallback_locales', 'populate', 'truncate_text', 'raw'];

/**
 * `POST {prefix}/{collection path}/_search`: full text, vector, vector-boosted or hybrid search
 * over the published documents of a collection the connection lets the reader list. Results
 * are shaped as list items are (localized, populated, narrowed to `fields`).
 */
export async function searchCollection(deps: SearchDeps, req: Request, res: Response, { env, api, match, routing }: Omit<ListContext, 'index'>): Promise<void> {
  const { index, embedder } = deps;
  if (match.rest.length > 0) throw notFound('route_not_found', 'Route');
  const { route } = match;
  const folder = route.folder;
  requireMethod(route, 'get_many');
  const query = req.query as Record<string, unknown>;
  refuseUnknownParameters(query, SEARCH_PARAMETERS, false);
  const fields = await index.searchFields(env, folder);
  const request = parseSearchRequest(req.body, fields);
  const ask = paging(req, request);
  const model = routing.model(env);
  const collection = model.collections.get(folder);
  const withData = servesData(route);
  // Without get_one the content is not the reader's: data fields can neither be filtered, sorted nor selected.
  const catalog = withData ? (collection?.catalog ?? new Map()) : new Map();
  const options = { ...readOptions(query, model.locales, catalog), fields: request.fields?.map((f) => f.split('.')) ?? null };
  const context = { catalog, locale: options.searchLocale };
  const { joins, aliases } = parseJoin(request.join, request.where, { api, model, catalog, locale: options.searchLocale });
  const where = parseWhereTree(request.where, context, aliases);
  const sort = parseSort(request.sort ?? undefined, context);
  const owners = await ownersOf(index, env, match);
  const filter = { ...(where ? { where } : {}), ...(joins.length > 0 ? { joins } : {}), sort, owners };


  const depth = unfiltered(filter) && request.mode !== 'vector_boosted' ? rankedStart(ask) + ask.limit + 1 : TEXT_CANDIDATES;
  const ranked = await rankedKeys({ index, embedder, env, folder, locale: options.searchLocale }, request, depth);
  const page = ranked === null ? await listPage(index, env, folder, filter, ask) : await rankedPage(index, env, folder, ranked, filter, ask);
  const cursor = (name: 'next' | 'previous', value: string | null) => (value === null ? null : urlWith(req, { next: null, previous: null, [name]: value }));
  const ctx: PopulateContext = { env, api, model, index, options, seen: new Map() };
  const results = [];
  for (const doc of page.docs) results.push(await shapeItem(doc, withData, collection, ctx));
  res.json({
    limit: ask.limit,
    next: cursor('next', page.next),
    previous: cursor('previous', page.previous),
    results,
    metadata: { search_mode: request.mode, limit: ask.limit, vector_search_enabled: request.vector !== null },
  });
}
