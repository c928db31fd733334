import { Router, type Request, type Response } from 'express';
import { DomainError, notFound } from '../../domain/errors.js';
import type { SearchIndex } from '../../projections/ports.js';
import { apiOpenApi } from './api-openapi.js';
import { param } from '../query.js';
import type { DeliveryAuth } from './auth.js';
import { corsHeaders } from './cors.js';
import { getDocument } from './get-one.js';
import { listDocuments, type ListContext } from './list.js';
import type { McpEndpoint } from './mcp/endpoint.js';
import { routerIntrospection } from './router-introspection.js';
import type { DeliveryApi, DeliveryRouting } from './routing.js';
import { collectionSchema } from './schema.js';
import { notRemembered } from './served-cache.js';
import { matchRoute, type Match } from './scope.js';
import { searchCollection, type SearchDeps } from './search/handler.js';
import type { DeliveryWrites } from './writes.js';

export { WWW_AUTHENTICATE } from './auth.js';

/**
 * The address a path names. A collection address wins over an item address of the same
 * segments (`/courses/:key/modules/lessons/` is the level-1 list of lessons, not the module
 * with key `lessons`).
 */
export function resolve(api: DeliveryApi, segments: readonly string[]): Match {
  const matches = api.routes.map((route) => matchRoute(route, segments)).filter((m): m is Match => m !== null);
  const match = matches.find((m) => m.rest.length === 0);
  if (match) return match;
  // A collection that exists but is not connected is named as such, not read as an item address.
  const unconnected = api.unconnected.get(segments.join('/'));
  if (unconnected !== undefined) throw notConnected(api, segments.join('/'), unconnected);
  if (!matches[0]) throw notFound('collection_not_found', 'Collection');
  return matches[0];
}

/** 404 collection_not_found saying the collection exists and which call connects it. */
function notConnected(api: DeliveryApi, path: string, folder: string): DomainError {
  return new DomainError(
    'collection_not_found',
    `The collection ${path} exists but is not connected to the API ${api.prefix}: connect it with POST /v1/{env}/api/${api.key}/collections/ {"folder": "${folder}"}.`,
    { collection: [path], folder: [folder] },
  );
}

/** Names starting with `_` are reserved for endpoints (`_schema`, `_search`, `_router`, `_openapi`, `_mcp`): never resource keys. */
const isReserved = (segment: string): boolean => segment.startsWith('_');

export type DeliveryRouterDeps = {
  readonly routing: DeliveryRouting;
  readonly index: SearchIndex;
  readonly auth: DeliveryAuth;
  readonly writes?: DeliveryWrites;
  readonly mcp?: Pick<McpEndpoint, 'handle'>;
  readonly search?: SearchDeps;
};

/** The delivery interface of every environment: `/{env}/{api_prefix}/{collection path}/[key/]`. */
export function deliveryRouter({ routing, index, auth, writes, mcp, search }: DeliveryRouterDeps): Router {
  const router = Router();

  router.all('/:env/:prefix/*segments', async (req: Request, res: Response) => {
    const env = param(req, 'env');
    if (!routing.hasEnvironment(env)) throw notFound('environment_not_found', 'Environment');
    const api = routing.api(env, param(req, 'prefix'));
    if (!api) throw notFound('api_not_found', 'API');
    const segments = ((req.params as unknown as { segments: string[] }).segments ?? []).filter(Boolean);
    // The agent endpoint: no CORS, its own methods, the same credentials as reads.
    if (mcp && segments.length === 1 && segments[0] === '_mcp') {
      const caller = api.mcp_enabled ? await auth.authenticate(req, res, env, api) : null;
      return mcp.handle(req, res, api, env, caller);
    }
    res.set(corsHeaders(api, req.get('origin')));
    if (req.method === 'OPTIONS') return res.status(204).end();
    const searching = search !== undefined && req.method === 'POST' && segments[segments.length - 1] === '_search';
    const writing = !searching && writes !== undefined && (req.method === 'POST' || req.method === 'PUT');
    if (req.method !== 'GET' && req.method !== 'HEAD' && !writing && !searching) throw notFound('route_not_found', 'Route');
    const caller = await auth.authenticate(req, res, env, api);
    const readable = (folder: string): boolean => auth.may(caller, api, folder, 'read');
    if (!auth.readsEverything(caller, api)) notRemembered(req);
    if (searching && search) {
      if (res.locals.bodyError) throw res.locals.bodyError;
      const match = resolve(api, segments.slice(0, -1));
      auth.authorize(res, caller, api, match.route.folder, 'read');
      return searchCollection(search, req, res, { env, api, match, routing, readable });
    }
    if (segments.length === 1 && segments[0] === '_router') {
      if (req.method !== 'GET' && req.method !== 'HEAD') throw notFound('route_not_found', 'Route');
      return routerIntrospection(req, res, api, readable);
    }
    if (segments.length === 1 && segments[0] === '_openapi') {
      if (req.method !== 'GET' && req.method !== 'HEAD') throw notFound('route_not_found', 'Route');
      return apiOpenApi(req, res, api, routing.model(env), readable);
    }
    const match = resolve(api, segments);
    if (writing && writes) return writes.handle(req, res, { env, api, match, caller });
    auth.authorize(res, caller, api, match.route.folder, 'read');
    const context: ListContext = { env, api, match, index, routing, readable };
    const [key] = match.rest;
    if (key === undefined) return listDocuments(req, res, context);
    if (key === '_schema') return collectionSchema(req, res, context);
    if (isReserved(key)) throw notFound('route_not_found', 'Route');
    return getDocument(req, res, key, context);
  });

  return router;
}
