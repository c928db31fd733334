import type { Request, Response } from 'express';
import { DomainError, notFound } from '../../../domain/errors.js';
import type { Embedder } from '../../../projections/embedder.js';
import type { DeliveryDoc, SearchIndex } from '../../../projections/ports.js';
import { urlWith } from '../../pagination.js';
import { queryString } from '../../query.js';
import { ownersOf, type Match } from '../scope.js';
import { invalid } from './body-schema.js';
import { parseSearchRequest, type SearchRequest } from './request.js';
import { rankedKeys } from './run.js';
import { shapeData } from './shape.js';

const MAX_LIMIT = 100;

/** A search cursor: how many results of the same request came before the page. */
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

type Paging = { readonly limit: number; readonly offset: number };

function paging(req: Request, request: SearchRequest): Paging {
  const raw = queryString(req.query, 'limit');
  if (raw !== undefined && !/^[1-9]\d{0,8}$/.test(raw)) throw invalid({ limit: ['must be an integer from 1'] });
  const limit = request.limit ?? Math.min(raw === undefined ? MAX_LIMIT : Number(raw), MAX_LIMIT);
  const next = queryString(req.query, 'next');
  const previous = queryString(req.query, 'previous');
  if (next !== undefined && previous !== undefined) throw invalid({ next: ['cannot be combined with previous'] });
  if (next !== undefined) return { limit, offset: decodeOffset(next, 'next') };
  if (previous !== undefined) return { limit, offset: Math.max(0, decodeOffset(previous, 'previous') - limit) };
  return { limit, offset: 0 };
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
  const fields = await index.searchFields(env, folder);
  const request = parseSearchRequest(req.body, fields);
  if (request.where !== undefined) throw invalid({ where: ['is not supported by _search yet'] });
  if (request.sort !== null) throw invalid({ sort: ['is not supported by _search yet'] });
  const page = paging(req, request);
  const searchLocale = locales(req, 'search_locale');
  if (searchLocale && searchLocale.length > 1) throw invalid({ search_locale: ['must be one locale code'] });
  const returnLocales = locales(req, 'return_locales');
  const owners = await ownersOf(index, env, match);

  const ranked = await rankedKeys({ index, embedder, env, folder, locale: searchLocale?.[0] ?? null }, request);
  let docs: DeliveryDoc[];
  let more: boolean;
  if (ranked === null) {
    // Nothing to rank: the collection in list order.
    const listed = await index.list(env, folder, { limit: page.offset + page.limit + 1, ...(owners ? { owners } : {}) });
    docs = listed.items.slice(page.offset, page.offset + page.limit);
    more = listed.items.length > page.offset + page.limit || listed.hasMore;
  } else {
    const wanted = owners ? ranked : ranked.slice(page.offset, page.offset + page.limit + 1);
    const byKey = new Map((await index.docsByKeys(env, folder, wanted)).map((doc) => [doc.key, doc]));
    const kept = wanted.map((key) => byKey.get(key)).filter((doc): doc is DeliveryDoc => doc !== undefined && (!owners || owners.includes(doc.owner ?? '')));
    const window = owners ? kept.slice(page.offset, page.offset + page.limit + 1) : kept;
    docs = window.slice(0, page.limit);
    more = window.length > page.limit;
  }
  const withData = match.route.allowed_methods.includes('get_one');
  const cursor = (name: 'next' | 'previous', offset: number) => urlWith(req, { next: null, previous: null, [name]: encodeOffset(offset) });
  res.json({
    limit: page.limit,
    next: more ? cursor('next', page.offset + page.limit) : null,
    previous: page.offset > 0 ? cursor('previous', page.offset) : null,
    results: docs.map((doc) => ({
      _sys: { key: doc.key, created_at: doc.created_at, updated_at: doc.updated_at, folder: doc.folder },
      ...(withData ? { data: shapeData(doc, fields, request.fields, returnLocales) } : {}),
    })),
    metadata: { search_mode: request.mode, limit: page.limit, vector_search_enabled: request.vector !== null },
  });
}
