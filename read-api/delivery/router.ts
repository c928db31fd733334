import { Router, type Request, type Response } from 'express';
import { DomainError, notFound } from '../../domain/errors.js';
import type { PageRequest, SearchIndex } from '../../projections/ports.js';
import { urlWith } from '../pagination.js';
import { param, queryInt, queryString } from '../query.js';
import { corsHeaders } from './cors.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { deliveryItem } from './documents.js';
import type { DeliveryApi, DeliveryRoute, DeliveryRouting } from './routing.js';
import { matchRoute, ownersOf, type Match } from './scope.js';
import { searchCollection, type SearchDeps } from './search/handler.js';

export const WWW_AUTHENTICATE = 'Simple realm="delivery-api", Secure realm="delivery-api"';
const MAX_LIMIT = 100;

/**
 * The address a path names. A collection address wins over an item address of the same
 * segments (`/courses/:key/modules/lessons/` is the level-1 list of lessons, not the module
 * with key `lessons`).
 */
function resolve(api: DeliveryApi, segments: readonly string[]): Match {
  const matches = api.routes.map((route) => matchRoute(route, segments)).filter((m): m is Match => m !== null);
  const match = matches.find((m) => m.rest.length === 0) ?? matches[0];
  if (!match) throw notFound('collection_not_found', 'Collection');
  return match;
}

function requireMethod(route: DeliveryRoute, method: string): void {
  if (!route.allowed_methods.includes(method)) {
    throw new DomainError('permission_denied', `The connection does not allow ${method}.`, { allowed_methods: [...route.allowed_methods] });
  }
}

function pageRequest(req: Request): PageRequest {
  const raw = queryString(req.query, 'limit');
  if (raw !== undefined && (!/^-?\d+$/.test(raw) || Number(raw) < 1)) {
    throw new DomainError('validation_error', 'Invalid query parameter limit.', { limit: ['must be an integer from 1'] });
  }
  const limit = Math.min(queryInt(req.query, 'limit', MAX_LIMIT, 1), MAX_LIMIT);
  const next = queryString(req.query, 'next');
  const previous = queryString(req.query, 'previous');
  if (next !== undefined && previous !== undefined) {
    throw new DomainError('validation_error', 'next and previous cannot be combined.', { next: ['cannot be combined with previous'] });
  }
  if (next !== undefined) return { limit, after: decodeCursor(next, 'next') };
  if (previous !== undefined) return { limit, before: decodeCursor(previous, 'previous') };
  return { limit };
}

/** The delivery interface of every environment: `/{env}/{api_prefix}/{collection path}/[key/]`. */
export function deliveryRouter(routing: DeliveryRouting, index: SearchIndex, search?: SearchDeps): Router {
  const router = Router();

  const list = async (req: Request, res: Response, match: Match, env: string) => {
    requireMethod(match.route, 'get_many');
    const owners = await ownersOf(index, env, match);
    const page = pageRequest(req);
    const { items, hasMore } = await index.list(env, match.route.folder, owners === null ? page : { ...page, owners });
    const first = items[0];
    const last = items[items.length - 1];
    const backward = page.before !== undefined;
    const cursor = (name: 'next' | 'previous', at: typeof first) =>
      at ? urlWith(req, { limit: String(page.limit), next: null, previous: null, [name]: encodeCursor(at) }) : null;
    const withData = match.route.allowed_methods.includes('get_one');
    res.json({
      limit: page.limit,
      next: backward || hasMore ? cursor('next', last) : null,
      previous: (backward ? hasMore : page.after !== undefined) ? cursor('previous', first) : null,
      results: items.map((doc) => deliveryItem(doc, withData)),
    });
  };

  const getOne = async (res: Response, match: Match, env: string, key: string) => {
    requireMethod(match.route, 'get_one');
    const owners = await ownersOf(index, env, match);
    const doc = await index.get(env, match.route.folder, key);
    if (!doc || (owners !== null && !owners.includes(doc.owner ?? ''))) throw notFound('resource_not_found', 'Resource');
    res.json(deliveryItem(doc, true));
  };

  router.all('/:env/:prefix/*segments', async (req, res) => {
    const env = param(req, 'env');
    if (!routing.hasEnvironment(env)) throw notFound('environment_not_found', 'Environment');
    const api = routing.api(env, param(req, 'prefix'));
    if (!api) throw notFound('api_not_found', 'API');
    res.set(corsHeaders(api, req.get('origin')));
    if (req.method === 'OPTIONS') return res.status(204).end();
    const searching = search !== undefined && req.method === 'POST' && /\/_search\/?$/.test(req.path);
    if (req.method !== 'GET' && req.method !== 'HEAD' && !searching) throw notFound('route_not_found', 'Route');
    if (api.is_auth_required) {
      res.set('WWW-Authenticate', WWW_AUTHENTICATE);
      throw new DomainError('authentication_required', 'Authentication credentials were not provided or are invalid.');
    }
    const segments = ((req.params as unknown as { segments: string[] }).segments ?? []).filter(Boolean);
    if (searching) return searchCollection(search, req, res, resolve(api, segments.slice(0, -1)), env);
    const match = resolve(api, segments);
    const [key] = match.rest;
    if (key === undefined) return list(req, res, match, env);
    return getOne(res, match, env, key);
  });

  return router;
}
