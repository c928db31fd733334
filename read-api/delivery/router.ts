import { Router, type Request, type Response } from 'express';
import { DomainError, notFound } from '../../domain/errors.js';
import type { SearchIndex } from '../../projections/ports.js';
import { param } from '../query.js';
import { corsHeaders } from './cors.js';
import { getDocument } from './get-one.js';
import { listDocuments, type ListContext } from './list.js';
import { routerIntrospection } from './router-introspection.js';
import type { McpEndpoint } from './mcp/endpoint.js';
import type { DeliveryApi, DeliveryRouting } from './routing.js';
import { collectionSchema } from './schema.js';
import { matchRoute, type Match } from './scope.js';

export const WWW_AUTHENTICATE = 'Simple realm="delivery-api", Secure realm="delivery-api"';

/**
 * The address a path names. A collection address wins over an item address of the same
 * segments (`/courses/:key/modules/lessons/` is the level-1 list of lessons, not the module
 * with key `lessons`).
 */
export function resolve(api: DeliveryApi, segments: readonly string[]): Match {
  const matches = api.routes.map((route) => matchRoute(route, segments)).filter((m): m is Match => m !== null);
  const match = matches.find((m) => m.rest.length === 0) ?? matches[0];
  if (!match) throw notFound('collection_not_found', 'Collection');
  return match;
}

/** Delivery credentials: none are accepted yet, so an auth-required API answers 401. */
function authenticate(api: DeliveryApi, res: Response): void {
  if (api.is_auth_required) {
    res.set('WWW-Authenticate', WWW_AUTHENTICATE);
    throw new DomainError('authentication_required', 'Authentication credentials were not provided or are invalid.');
  }
}

/** Names starting with `_` are reserved for endpoints (`_schema`, `_search`, `_router`, `_mcp`): never resource keys. */
const isReserved = (segment: string): boolean => segment.startsWith('_');

/** The delivery interface of every environment: `/{env}/{api_prefix}/{collection path}/[key/]`. */
export function deliveryRouter(routing: DeliveryRouting, index: SearchIndex, mcp?: McpEndpoint): Router {
  const router = Router();

  router.all('/:env/:prefix/*segments', async (req: Request, res: Response) => {
    const env = param(req, 'env');
    if (!routing.hasEnvironment(env)) throw notFound('environment_not_found', 'Environment');
    const api = routing.api(env, param(req, 'prefix'));
    if (!api) throw notFound('api_not_found', 'API');
    const segments = ((req.params as unknown as { segments: string[] }).segments ?? []).filter(Boolean);
    // The agent endpoint: no CORS, its own methods, the same credentials as reads.
    if (mcp && segments.length === 1 && segments[0] === '_mcp') {
      if (api.mcp_enabled) authenticate(api, res);
      return mcp.handle(req, res, api, env);
    }
    res.set(corsHeaders(api, req.get('origin')));
    if (req.method === 'OPTIONS') return res.status(204).end();
    if (req.method !== 'GET' && req.method !== 'HEAD') throw notFound('route_not_found', 'Route');
    authenticate(api, res);
    if (segments.length === 1 && segments[0] === '_router') return routerIntrospection(req, res, api);
    const match = resolve(api, segments);
    const context: ListContext = { env, api, match, index, routing };
    const [key] = match.rest;
    if (key === undefined) return listDocuments(req, res, context);
    if (key === '_schema') return collectionSchema(req, res, context);
    if (isReserved(key)) throw notFound('route_not_found', 'Route');
    return getDocument(req, res, key, context);
  });

  return router;
}
