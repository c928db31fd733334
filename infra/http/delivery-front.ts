import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import helmet from 'helmet';
import { notModified, SURROGATE_KEY } from '../../read-api/delivery/caching.js';
import { corsHeaders } from '../../read-api/delivery/cors.js';
import { resolve } from '../../read-api/delivery/router.js';
import type { DeliveryApi, DeliveryRouting } from '../../read-api/delivery/routing.js';
import type { ServedCache } from '../../read-api/delivery/served-cache.js';
import { listsOf } from '../../read-api/delivery/served-invalidation.js';
import type { EnvironmentStatus } from '../../read-api/environment-status.js';
import { FORWARD_HEADER } from '../../read-api/delivery/auth.js';

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
  readonly status?: EnvironmentStatus;
};

/** An anonymous GET or HEAD without a body: the only reads answered from, or remembered in, the cache. */
function cacheable(req: IncomingMessage): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const h = req.headers;
  if (h.authorization !== undefined || h[FORWARD_HEADER] !== undefined || h['transfer-encoding'] !== undefined) return false;
  return h['content-length'] === undefined || h['content-length'] === '0';
}

/**
 * The delivery interface's listener (docs/decisions/0132): an anonymous read whose answer is
 * remembered is written from the stored bytes, with the same headers the express app gives it,
 * without the express app; every other request goes to the express app, which remembers the
 * answers of the reads this front admitted.
 */
export function deliveryFront({ app, routing, cache, status }: DeliveryFrontDeps): Handler {
  const security = securityHeaders();
  return (req, res) => {
    if (!cacheable(req)) return app(req, res);
    const url = req.url ?? '/';
    const cacheKey = `${req.headers.host ?? ''} ${url}`;
    const query = url.indexOf('?');
    const segments = (query < 0 ? url : url.slice(0, query)).split('/').filter(Boolean);
    const [env, prefix] = segments;
    if (env === undefined || prefix === undefined || url.includes('%')) return app(req, res);
    try {
      status?.check(env);
    } catch {
      return app(req, res); // the express app answers the refusal
    }
    const api = routing.api(env, prefix);
    if (!api || api.is_auth_required) return app(req, res);
    const stored = cache.lookup(cacheKey);
    if (!stored) {
      admit(req, cacheKey, env, api, segments.slice(2));
      return app(req, res);
    }
    const headers: OutgoingHttpHeaders = { ...security, ...corsHeaders(api, req.headers.origin), etag: stored.etag, [SURROGATE_KEY]: stored.surrogateKeys };
    if (notModified(req.headers['if-none-match'], stored.etag)) {
      res.writeHead(304, headers).end();
      return;
    }
    headers['content-type'] = 'application/json; charset=utf-8';
    headers['content-length'] = stored.body.length;
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : stored.body);
  };

  /** Lets a list or get-one read be remembered; not endpoints (`_schema`...) nor addresses scoped by their parents' keys. */
  function admit(req: IncomingMessage, cacheKey: string, env: string, api: DeliveryApi, path: readonly string[]): void {
    if (path.some((s) => s.startsWith('_'))) return;
    let match;
    try {
      match = resolve(api, path);
    } catch {
      return;
    }
    const { route, rest } = match;
    if (route.chain.length > 0 && route.keep > 0) return;
    if (rest.length === 0) cache.admit(req, cacheKey, [env, listsOf(env)]);
    else cache.admit(req, cacheKey, [env], new Set([route.folder, listsOf(env)]));
  }
}
