import type { ServerResponse } from 'node:http';
import { DomainError, notFound } from '../../domain/errors.js';
import type { SearchIndex } from '../../projections/ports.js';
import { apiOpenApi } from './api-openapi.js';
import { AskedBefore } from './asked-before.js';
import type { DeliveryAnswer, DeliveryAsk, DeliveryWrites, ReadAnswer } from '../../api/delivery-ask.js';
import type { DeliveryAuth } from './auth.js';
import { notModified, SURROGATE_KEY, servedText } from './caching.js';
import { corsHeaders } from './cors.js';
import { oneAnswer } from './get-one.js';
import { listAnswer, type ListContext } from './list.js';
import type { McpEndpoint, McpRequest } from './mcp/endpoint.js';
import { routerIntrospection } from './router-introspection.js';
import type { DeliveryApi, DeliveryRouting } from './routing.js';
import { collectionSchema } from './schema.js';
import type { ServedAnswer, ServedCache } from './served-cache.js';
import { listsOf } from './served-invalidation.js';
import { matchRoute, type Match } from './scope.js';
import { searchAnswer, type SearchDeps } from './search/answer.js';

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

/** Addresses kept to tell a second read (docs/decisions/0266): as many as the answer cache's entries (0221). */
export const ASKED_BEFORE = 20_000;

export type DeliveryPipelineDeps = {
  readonly routing: DeliveryRouting;
  readonly index: SearchIndex;
  readonly auth: DeliveryAuth;
  readonly cache: ServedCache;
  readonly writes?: DeliveryWrites;
  readonly mcp?: Pick<McpEndpoint, 'handle'>;
  readonly search?: SearchDeps;
};

/** Where a delivery request is addressed: `/{env}/{prefix}/{segments...}`, each decoded. */
export type DeliveryAddress = { readonly env: string; readonly prefix: string; readonly segments: readonly string[] };

/**
 * What the pipeline answers: an answer to write, a refusal with the headers it carries anyway
 * (the API's CORS headers), or, for the agent endpoint, the request handed over to the MCP SDK,
 * which writes its own answers.
 */
export type Delivered =
  | DeliveryAnswer
  | { readonly error: unknown; readonly headers: Readonly<Record<string, string>> }
  | { readonly handOver: (req: McpRequest, res: ServerResponse) => Promise<void> };

/** A JSON read answer shaped: its ETag and surrogate keys, or 304 when the reader has these bytes already. */
function shaped(ask: DeliveryAsk, { body, etag, surrogateKeys }: ServedAnswer): DeliveryAnswer {
  const headers = { ETag: etag, [SURROGATE_KEY]: surrogateKeys };
  return notModified(ask.header('if-none-match'), etag) ? { status: 304, headers } : { status: 200, headers, body };
}

const shape = (ask: DeliveryAsk, read: ReadAnswer): DeliveryAnswer => shaped(ask, servedText(read).answer);

const routeNotFound = (): DomainError => notFound('route_not_found', 'Route');

/**
 * The delivery interface of every environment, `/{env}/{prefix}/{collection path}/[key/]`, as
 * one pipeline (docs/decisions/0370), after the server's parse step: address → authenticate →
 * authorize → answer cache → execute → shape. Whatever the cache holds, the caller is
 * authenticated and authorized first, by the same code.
 */
export function deliveryPipeline({ routing, index, auth, cache, writes, mcp, search }: DeliveryPipelineDeps): (ask: DeliveryAsk, at: DeliveryAddress) => Promise<Delivered> {
  /** An answer is remembered from its address's second read on (0266). */
  const asked = new AskedBefore(ASKED_BEFORE);

  return async (ask, { env, prefix, segments }) => {
    if (!routing.hasEnvironment(env)) throw notFound('environment_not_found', 'Environment');
    const api = routing.api(env, prefix);
    if (!api) throw notFound('api_not_found', 'API');
    // The agent endpoint: no CORS, its own methods, the same credentials as reads.
    if (mcp && segments.length === 1 && segments[0] === '_mcp') {
      const caller = api.mcp_enabled ? await auth.authenticate(ask, env, api) : null;
      return { handOver: (req, res) => mcp.handle(req, res, api, env, caller) };
    }
    const cors = corsHeaders(api, ask.header('origin'));
    try {
      const answer = await answerOf(ask, env, api, segments);
      return { ...answer, headers: { ...answer.headers, ...cors } };
    } catch (error) {
      return { error, headers: cors };
    }
  };

  async function answerOf(ask: DeliveryAsk, env: string, api: DeliveryApi, segments: readonly string[]): Promise<DeliveryAnswer> {
    const { method } = ask;
    if (method === 'OPTIONS') return { status: 204 };
    const reading = method === 'GET' || method === 'HEAD';
    const searching = search !== undefined && method === 'POST' && segments[segments.length - 1] === '_search';
    const writing = !searching && writes !== undefined && (method === 'POST' || method === 'PUT');
    if (!reading && !writing && !searching) throw routeNotFound();
    // Authenticate.
    const caller = await auth.authenticate(ask, env, api);
    const readable = (folder: string): boolean => auth.may(caller, api, folder, 'read');
    if (searching && search) {
      if (ask.bodyError) throw ask.bodyError;
      const match = resolve(api, segments.slice(0, -1));
      auth.authorize(caller, api, match.route.folder, 'read');
      return { status: 200, body: await searchAnswer(search, ask, { env, api, match, routing, readable }) };
    }
    if (segments.length === 1 && (segments[0] === '_router' || segments[0] === '_openapi')) {
      if (!reading) throw routeNotFound();
      return shape(ask, segments[0] === '_router' ? routerIntrospection(env, api, readable) : apiOpenApi(ask, env, api, routing.model(env), readable));
    }
    const match = resolve(api, segments);
    if (writing && writes) return writes.handle(ask, { env, match, caller, authorize: (action) => auth.authorize(caller, api, match.route.folder, action) });
    // Authorize.
    const { route } = match;
    auth.authorize(caller, api, route.folder, 'read');
    const context: ListContext = { env, api, match, index, routing, readable };
    const [key] = match.rest;
    if (key === '_schema') return shape(ask, collectionSchema(ask, context));
    if (key !== undefined && isReserved(key)) throw routeNotFound();
    // The answer cache: an answer that does not depend on who reads it (0161), nor on the keys of its parents.
    const shared = auth.readsEverything(caller, api) && !(route.chain.length > 0 && route.keep > 0);
    const cacheKey = `${ask.header('host') ?? ''} ${ask.url}`;
    const remembered = shared ? cache.lookup(cacheKey) : undefined;
    if (remembered) return shaped(ask, remembered);
    const admission = shared && asked.ask(cacheKey) ? cache.admit(cacheKey, key === undefined ? [env, listsOf(env)] : [env], key === undefined ? undefined : new Set([route.folder, listsOf(env)])) : null;
    // Execute, then shape.
    const served = servedText(key === undefined ? await listAnswer(ask, context) : await oneAnswer(ask.query, key, context));
    if (admission) cache.fill(admission, served.answer, served.keys);
    return shaped(ask, served.answer);
  }
}
