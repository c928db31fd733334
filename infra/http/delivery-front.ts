import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import helmet from 'helmet';
import { resolve } from '../../read-api/delivery/router.js';
import type { DeliveryApi, DeliveryRouting } from '../../read-api/delivery/routing.js';
import type { ServedCache, ServedEntry } from '../../read-api/delivery/served-cache.js';
import { listsOf } from '../../read-api/delivery/served-invalidation.js';
import type { EnvironmentStatus } from '../../read-api/environment-status.js';
import { FORWARD_HEADER, type DeliveryAuth } from '../../read-api/delivery/auth.js';
import type { ServedObserver } from '../observability/served-answers.js';
import type { SearchIndex } from '../../projections/ports.js';
import { frontList } from './delivery-front-list.js';
import { frontOne } from './delivery-front-one.js';
import { frontSearch } from './delivery-front-search.js';
import type { SearchDeps } from '../../read-api/delivery/search/answer.js';
import { servedHeaders, writeServed, type ServedHeaders } from './served-write.js';
import { AskedBefore } from '../../read-api/delivery/asked-before.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** The headers helmet sets on every delivery answer, taken once from helmet itself. */
export function securityHeaders(): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  const recorder = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet({ contentSecurityPolicy: false })(recorder as never, recorder as never, () => {});
  return headers;
}

export type DeliveryFrontDeps = {
  readonly app: Handler;
  readonly routing: DeliveryRouting;
  readonly cache: ServedCache;
  readonly auth: DeliveryAuth;
  readonly status?: EnvironmentStatus;
  /** Request id, log line and metrics of the answers written here (the express app's front does them for the rest). */
  readonly observer?: ServedObserver;
  /** The delivery index: with it, a list or get-one read not remembered yet is answered here too (docs/decisions/0182, 0245). */
  readonly index?: SearchIndex;
  /** With it, a `POST .../_search` is answered here too (docs/decisions/0260). */
  readonly search?: SearchDeps;
};

/** Addresses kept to tell a second read (docs/decisions/0266): as many as the served cache's entries (0221). */
export const ASKED_BEFORE = 20_000;

/** A GET or HEAD without a body, not replayed by the agent endpoint: the only reads answered from, or remembered in, the cache. */
function cacheable(req: IncomingMessage): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const h = req.headers;
  if (h[FORWARD_HEADER] !== undefined || h['transfer-encoding'] !== undefined) return false;
  return h['content-length'] === undefined || h['content-length'] === '0';
}

/**
 * The delivery interface's listener (docs/decisions/0132): a read whose answer is remembered,
 * anonymous or with a Simple or Bearer key already known to be allowed, is written from the
 * stored bytes with the same headers the express app gives it, without the express app; every
 * other request goes to the express app, which remembers the answers of the reads this front
 * admitted.
 */
export function deliveryFront({ app, routing, cache, auth, status, observer, index, search }: DeliveryFrontDeps): Handler {
  const security = Object.entries(securityHeaders()).flat() as string[];
  const list = index ? frontList({ index, routing, security, observer }) : null;
  const one = index ? frontOne({ index, routing, security, observer }) : null;
  const searching = search ? frontSearch({ search, routing, security, observer, served, allowed }) : null;
  /** An answer is remembered from its address's second read on (0266). */
  const asked = new AskedBefore(ASKED_BEFORE);
  /** The headers of a remembered answer but CORS, built on its first use. */
  const prepared = new WeakMap<ServedEntry, ServedHeaders>();
  const headersOf = (entry: ServedEntry): ServedHeaders => {
    let headers = prepared.get(entry);
    if (!headers) prepared.set(entry, (headers = servedHeaders(security, entry)));
    return headers;
  };

  return (req, res) => {
    if (!cacheable(req)) return searching && req.method === 'POST' ? searching(req, res, () => app(req, res)) : app(req, res);
    const url = req.url ?? '/';
    const cacheKey = `${req.headers.host ?? ''} ${url}`;
    const entry = cache.lookup(cacheKey);
    if (!entry) return admit(req, res, url, cacheKey);
    const api = routing.api(entry.env, entry.prefix);
    if (!api || !served(entry.env)) return app(req, res); // the express app answers the refusal
    if (!allowed(req, entry.env, api, entry.folder)) return app(req, res);
    writeServed(req, res, api, entry, headersOf(entry), observer, process.hrtime.bigint());
  };

  /** Whether the reader may read the collection: anonymous on a public API, or a Simple or Bearer key known to be allowed. */
  function allowed(req: IncomingMessage, env: string, api: DeliveryApi, folder: string): boolean {
    const authorization = req.headers.authorization;
    return authorization === undefined ? !api.is_auth_required : auth.readsFromMemory(authorization, env, api, folder);
  }

  /** Whether the environment is neither disabled nor deleted, as of now. */
  function served(env: string): boolean {
    try {
      status?.check(env);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Lets the express app answer, remembering a list or get-one answer; not endpoints
   * (`_schema`...) nor addresses scoped by their parents' keys.
   */
  function admit(req: IncomingMessage, res: ServerResponse, url: string, cacheKey: string): void {
    const query = url.indexOf('?');
    const [env, prefix, ...path] = (query < 0 ? url : url.slice(0, query)).split('/').filter(Boolean);
    const api = env !== undefined && prefix !== undefined ? routing.api(env, prefix) : undefined;
    if (!api || !served(env!) || url.includes('%') || path.some((s) => s.startsWith('_'))) return app(req, res);
    let match;
    try {
      match = resolve(api, path);
    } catch {
      return app(req, res);
    }
    const { route, rest } = match;
    // The answer does not depend on who reads it: whoever may read it later gets these bytes.
    const scope = { env: env!, prefix: prefix!, folder: route.folder };
    if (route.chain.length > 0 && route.keep > 0) return app(req, res);
    // An address asked for the first time is answered, not remembered (0266).
    if (asked.ask(cacheKey)) {
      if (rest.length === 0) cache.admit(req, cacheKey, scope, [scope.env, listsOf(scope.env)]);
      else cache.admit(req, cacheKey, scope, [scope.env], new Set([route.folder, listsOf(scope.env)]));
    }
    if (list && rest.length === 0 && allowed(req, env!, api, route.folder)) return list(req, res, { env: env!, api, match }, () => app(req, res));
    if (one && rest.length === 1 && allowed(req, env!, api, route.folder)) return one(req, res, { env: env!, api, match, key: rest[0]! }, () => app(req, res));
    app(req, res);
  }
}
