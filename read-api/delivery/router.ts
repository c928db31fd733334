import { Router, type Request, type Response } from 'express';
import { DomainError, notFound } from '../../domain/errors.js';
import type { PageRequest, SearchIndex } from '../../projections/ports.js';
import { urlWith } from '../pagination.js';
import { param, queryInt, queryString } from '../query.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { deliveryItem } from './documents.js';
import type { DeliveryApi, DeliveryRoute, DeliveryRouting } from './routing.js';

export const WWW_AUTHENTICATE = 'Simple realm="delivery-api", Secure realm="delivery-api"';
const MAX_LIMIT = 100;

type Target = { readonly route: DeliveryRoute; readonly rest: readonly string[] };

/** The longest connected alias path at the start of the segments, and what follows it. */
function resolve(api: DeliveryApi, segments: readonly string[]): Target {
  for (let i = segments.length; i > 0; i--) {
    const route = api.routes.get(segments.slice(0, i).join('/'));
    if (route) return { route, rest: segments.slice(i) };
  }
  throw notFound('collection_not_found', 'Collection');
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
export function deliveryRouter(routing: DeliveryRouting, index: SearchIndex): Router {
  const router = Router();

  const list = async (req: Request, res: Response, route: DeliveryRoute, env: string) => {
    requireMethod(route, 'get_many');
    const page = pageRequest(req);
    const { items, hasMore } = await index.list(env, route.folder, page);
    const first = items[0];
    const last = items[items.length - 1];
    const backward = page.before !== undefined;
    const cursor = (name: 'next' | 'previous', at: typeof first) =>
      at ? urlWith(req, { limit: String(page.limit), next: null, previous: null, [name]: encodeCursor(at) }) : null;
    const withData = route.allowed_methods.includes('get_one');
    res.json({
      limit: page.limit,
      next: backward || hasMore ? cursor('next', last) : null,
      previous: (backward ? hasMore : page.after !== undefined) ? cursor('previous', first) : null,
      results: items.map((doc) => deliveryItem(doc, withData)),
    });
  };

  router.get('/:env/:prefix/*segments', async (req, res) => {
    const env = param(req, 'env');
    if (!routing.hasEnvironment(env)) throw notFound('environment_not_found', 'Environment');
    const api = routing.api(env, param(req, 'prefix'));
    if (!api) throw notFound('api_not_found', 'API');
    if (api.is_auth_required) {
      res.set('WWW-Authenticate', WWW_AUTHENTICATE);
      throw new DomainError('authentication_required', 'Authentication credentials were not provided or are invalid.');
    }
    const segments = ((req.params as unknown as { segments: string[] }).segments ?? []).filter(Boolean);
    const { route, rest } = resolve(api, segments);
    if (rest.length === 0) return list(req, res, route, env);
    if (rest.length === 1) {
      requireMethod(route, 'get_one');
      const doc = await index.get(env, route.folder, rest[0] as string);
      if (!doc) throw notFound('resource_not_found', 'Resource');
      return res.json(deliveryItem(doc, true));
    }
    throw notFound('route_not_found', 'Route');
  });

  return router;
}
