import type { Request, Response } from 'express';
import { DomainError, notFound } from '../../../domain/errors.js';
import type { Embedder } from '../../../projections/embedder.js';
import type { SearchIndex } from '../../../projections/ports.js';
import { urlWith } from '../../pagination.js';
import { queryString } from '../../query.js';
import { ownersOf, type Match } from '../scope.js';
import { catalogOf } from '../query/catalog.js';
import { parseSort } from '../query/sort.js';
import { parseWhereTree } from '../query/where.js';
import { invalid } from './body-schema.js';
import { listPage, rankedPage, rankedStart, unfiltered, type PageAsk } from './pages.js';
import { parseSearchRequest, type SearchRequest } from './request.js';
import { rankedKeys, TEXT_CANDIDATES } from './run.js';
import { shapeData } from './shape.js';

const MAX_LIMIT = 100;
/** Localizable fields named in `where` and `sort` are read in this locale unless `search_locale` names one. */
const DEFAULT_LOCALE = 'en';

function paging(req: Request, request: SearchRequest): PageAsk {
  const raw = queryString(req.query, 'limit');
  if (raw !== undefined && !/^[1-9]\d{0,8}$/.test(raw)) throw invalid({ limit: ['must be an integer from 1'] });
  const limit = request.limit ?? Math.min(raw === undefined ? MAX_LIMIT : Number(raw), MAX_LIMIT);
  const next = queryString(req.query, 'next');
  const previous = queryString(req.query, 'previous');
  if (next !== undefined && previous !== undefined) throw invalid({ next: ['cannot be combined with previous'] });
  return { limit, ...(next !== undefined ? { next } : {}), ...(previous !== undefined ? { previous } : {}) };
}

/** Catalogs by schema object: the index answers the same object while the published version stays. */
const catalogs = new WeakMap<object, ReturnType<typeof catalogOf>>();
function catalogFor(schema: unknown): ReturnType<typeof catalogOf> {
  if (!schema || typeof schema !== 'object') return catalogOf({});
  let catalog = catalogs.get(schema);
  if (!catalog) {
    catalog = catalogOf(schema);
    catalogs.set(schema, catalog);
  }
  return catalog;
}

function locales(req: Request, name: string): string[] | null {
  const raw = queryString(req.query, name);
  if (raw === undefined) return null;
  const list = raw.split(',').map((s) => s.trim()).filter(Boolean);
  if (list.length === 0 || !list.every((code) => /^[A-Za-z]+(_[A-Za-z0-9]+)*$/.test(code))) throw invalid({ [name]: ['must be a comma-separated list of locale codes'] });
  return list;
}

export type SearchDeps = { readonly index: SearchIndex; readonly embedder: Embedder };

/**
 * `POST {prefix}/{collection path}/_search`: full text, vector, vector-boosted or hybrid search
 * over the published documents of a collection the connection lets the reader list.
 */
export async function searchCollection(deps: SearchDeps, req: Request, res: Response, match: Match, env: string): Promise<void> {
  const { index, embedder } = deps;
  if (match.rest.length > 0) throw notFound('route_not_found', 'Route');
  const folder = match.route.folder;
  if (!match.route.allowed_methods.includes('get_many')) {
    throw new DomainError('permission_denied', 'The connection does not allow get_many.', { allowed_methods: [...match.route.allowed_methods] });
  }
  const [fields, schema] = await Promise.all([index.searchFields(env, folder), index.searchSchema(env, folder)]);
  const request = parseSearchRequest(req.body, fields);
  const ask = paging(req, request);
  const searchLocale = locales(req, 'search_locale');
  if (searchLocale && searchLocale.length > 1) throw invalid({ search_locale: ['must be one locale code'] });
  const returnLocales = locales(req, 'return_locales');
  const context = { catalog: catalogFor(schema), locale: searchLocale?.[0] ?? DEFAULT_LOCALE };
  const where = parseWhereTree(request.where, context);
  const sort = parseSort(request.sort ?? undefined, context);
  const owners = await ownersOf(index, env, match);
  const filter = { ...(where ? { where } : {}), sort, owners };

  const depth = unfiltered(filter) && request.mode !== 'vector_boosted' ? rankedStart(ask) + ask.limit + 1 : TEXT_CANDIDATES;
  const ranked = await rankedKeys({ index, embedder, env, folder, locale: searchLocale?.[0] ?? null }, request, depth);
  const page = ranked === null ? await listPage(index, env, folder, filter, ask) : await rankedPage(index, env, folder, ranked, filter, ask);
  const withData = match.route.allowed_methods.includes('get_one');
  const cursor = (name: 'next' | 'previous', value: string | null) => (value === null ? null : urlWith(req, { next: null, previous: null, [name]: value }));
  res.json({
    limit: ask.limit,
    next: cursor('next', page.next),
    previous: cursor('previous', page.previous),
    results: page.docs.map((doc) => ({
      _sys: { key: doc.key, created_at: doc.created_at, updated_at: doc.updated_at, folder: doc.folder },
      ...(withData ? { data: shapeData(doc, fields, request.fields, returnLocales) } : {}),
    })),
    metadata: { search_mode: request.mode, limit: ask.limit, vector_search_enabled: request.vector !== null },
  });
}
