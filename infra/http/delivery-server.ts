import { createReadStream, statSync } from 'node:fs';
import { METHODS, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { TLSSocket } from 'node:tls';
import findMyWay from 'find-my-way';
import typeis from 'type-is';
import { DomainError } from '../../domain/errors.js';
import type { Embedder } from '../../projections/embedder.js';
import type { SearchIndex } from '../../projections/ports.js';
import type { DeliveryAsk } from '../../api/delivery-ask.js';
import { WWW_AUTHENTICATE, type DeliveryAuth } from '../../read-api/delivery/auth.js';
import type { McpEndpoint, McpRequest } from '../../read-api/delivery/mcp/endpoint.js';
import { deliveryPipeline, type Delivered } from '../../read-api/delivery/router.js';
import type { DeliveryRouting } from '../../read-api/delivery/routing.js';
import type { ServedCache } from '../../read-api/delivery/served-cache.js';
import type { EnvironmentStatus } from '../../read-api/environment-status.js';
import type { WriteDeps } from '../../write-api/deps.js';
import { deliveryWrites } from '../../write-api/delivery-writes.js';
import { errorCodeOf, answeredWith, errorAnswer } from './errors.js';
import type { FrontDeps } from './front.js';
import { jsonBodiesOnly } from './json-only.js';
import { bodyDepthGuard } from './body-depth.js';
import { BODY_LIMIT } from './management-app.js';
import { jsonBody } from './raw-body.js';
import type { RouteEntry } from './route-table.js';
import { idOf, REQUEST_ID_HEADER, requestLog } from '../observability/request-log.js';
import { referencePages } from '../openapi/reference.js';
import { securityHeaders } from './security-headers.js';
import { urlWith } from '../../api/url-with.js';

export type DeliveryServerDeps = {
  readonly routing: DeliveryRouting;
  readonly searchIndex: SearchIndex;
  readonly embedder: Embedder;
  readonly auth: DeliveryAuth;
  readonly writes: WriteDeps;
  /** The answer cache (docs/decisions/0131), evicted by the delivery projection and routing reloads. */
  readonly cache: ServedCache;
  readonly mcp?: Pick<McpEndpoint, 'handle'>;
  readonly log: (message: string, error: unknown) => void;
  readonly status?: EnvironmentStatus;
  /** The request log, metrics and readiness of the operations endpoints. */
  readonly front: FrontDeps;
};

export type DeliveryServer = {
  /** The delivery port's request listener. */
  readonly listener: RequestListener;
  /** Every route the server answers (method and path template), for the API document and the tests that walk it. */
  routes(): RouteEntry[];
};

/** What a route keeps beside its handler: its template as the metrics and the API document name it, and ALL for every method. */
type Store = { readonly label: string; readonly method?: 'ALL' };

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

const DELIVERY_ROUTE = '/:env/:prefix/*segments';
const JSON_TYPE = 'application/json; charset=utf-8';

/** The request target's path, split on `/` and decoded segment by segment (a `%2F` stays inside its segment); URIError on bad encoding. */
function segmentsOf(url: string): string[] {
  const at = url.indexOf('?');
  return (at < 0 ? url : url.slice(0, at)).split('/').slice(1).map((segment) => (segment.includes('%') ? decodeURIComponent(segment) : segment));
}

/** The request id pino-http gave the request (`idOf`: the caller's plain one, or a new UUID). */
const idOfRequest = (res: ServerResponse): string => (res.req as IncomingMessage & { id: string }).id;

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
};

/** Runs a (req, res, next) step of node:http as a promise. */
const step = (run: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void, req: IncomingMessage, res: ServerResponse): Promise<unknown> =>
  new Promise((resolve) => run(req, res, resolve));

/**
 * The delivery port (docs/decisions/0370): node:http routed by find-my-way, nothing of express.
 * Every request is observed (request id, pino-http's log line, prom-client's metrics) and
 * carries helmet's headers; the operations endpoints answer as such; every other request goes
 * through the one delivery pipeline: parse (JSON only, body limit and depth; a body error is
 * kept for after authentication) → environment status → the pipeline of
 * read-api/delivery/router.ts (authenticate → authorize → answer cache → execute → shape) → write.
 */
export function deliveryServer(deps: DeliveryServerDeps): DeliveryServer {
  const { front, status } = deps;
  const security = Object.entries(securityHeaders({ contentSecurityPolicy: false })).flat() as string[];
  // The id goes out with each answer's headers, written at once (send).
  const requestLine = requestLog(front.logger, 'delivery', idOf);

  /** Writes an answer's head at once: helmet's headers, the request id, the answer's own headers. */
  const head = (res: ServerResponse, status: number, headers: Readonly<Record<string, string>>, ...more: string[]): ServerResponse => {
    const all = [...security, REQUEST_ID_HEADER, idOfRequest(res), ...more];
    for (const name in headers) all.push(name, headers[name]!);
    return res.writeHead(status, all);
  };
  /** Writes a whole answer: its head, and a JSON body when there is one (none for HEAD: node:http drops it). */
  const send = (res: ServerResponse, status: number, headers: Readonly<Record<string, string>>, body?: string | Buffer): void => {
    if (body === undefined) return void head(res, status, headers).end();
    head(res, status, headers, 'content-type', JSON_TYPE, 'content-length', String(Buffer.byteLength(body)));
    res.end(body);
  };
  const parser = jsonBody(BODY_LIMIT) as unknown as (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
  const deliver = deliveryPipeline({
    routing: deps.routing,
    index: deps.searchIndex,
    auth: deps.auth,
    cache: deps.cache,
    writes: deliveryWrites(deps.writes),
    mcp: deps.mcp,
    search: { index: deps.searchIndex, embedder: deps.embedder },
  });
  const router = findMyWay({
    ignoreTrailingSlash: true,
    maxParamLength: 8192,
    // Express 5's "simple" query parser.
    querystringParser: (query) => parseQuery(query),
  });
  const route = (methods: string[], path: string, label: string, handler: Handler): void => {
    for (const method of methods) router.on(method as never, path, (req, res) => void handler(req, res), { label } satisfies Store);
  };
  const reads = ['GET', 'HEAD'];
  const noStore = { 'cache-control': 'no-store' };

  // The operations endpoints and the interface's reference.
  route(reads, '/healthz', '/healthz', (_req, res) => send(res, 200, noStore, JSON.stringify({ status: 'ok' })));
  route(reads, '/readyz', '/readyz', async (_req, res) => {
    const report = await front.readiness();
    send(res, report.status === 'ready' ? 200 : 503, noStore, JSON.stringify(report));
  });
  route(reads, '/metrics', '/metrics', async (_req, res) => {
    const text = await front.metrics.registry.metrics();
    head(res, 200, { ...noStore, 'content-type': front.metrics.registry.contentType, 'content-length': String(Buffer.byteLength(text)) });
    res.end(text);
  });
  const reference = referencePages('delivery', () => routes());
  route(reads, '/openapi.json', '/openapi.json', (_req, res) => send(res, 200, {}, JSON.stringify(reference.document())));
  route(reads, '/docs/', '/docs/', (req, res) => {
    const html = reference.page(parseQuery((req.url ?? '').split('?')[1] ?? '').api);
    head(res, 200, { 'content-security-policy': reference.csp, 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(html)) });
    res.end(html);
  });
  route(reads, '/docs/standalone.js', '/docs/standalone.js', (_req, res) => {
    head(res, 200, { 'cache-control': 'public, max-age=3600', 'content-type': 'application/javascript; charset=utf-8', 'content-length': String(statSync(reference.script).size) });
    createReadStream(reference.script).pipe(res);
  });
  // Every delivery address: the pipeline reads the decoded segments itself.
  for (const method of METHODS) {
    router.on(method as never, '/:env/:prefix/*', (req, res, _params, _store, query) => void pipeline(req, res, query as Record<string, unknown>), { label: DELIVERY_ROUTE, method: 'ALL' } satisfies Store);
  }

  function routes(): RouteEntry[] {
    const seen = new Map<string, RouteEntry>();
    // find-my-way's own list of what it routes.
    for (const { method, store } of (router as unknown as { routes: { method: string; store: Store }[] }).routes) {
      const entry = { method: store.method ?? method, path: store.label };
      if (entry.method !== 'HEAD') seen.set(`${entry.method} ${entry.path}`, entry);
    }
    return [...seen.values()];
  }

  /**
   * Parse, the environment's status, the pipeline, write; an address no route names (`query`
   * null: find-my-way did not parse it) gets 404 route_not_found after the same parse.
   */
  async function pipeline(req: IncomingMessage, res: ServerResponse, query: Record<string, unknown> | null): Promise<void> {
    let delivered: Delivered;
    try {
      const ask = await parse(req, res, query);
      const [env, prefix, ...rest] = segmentsOf(req.url ?? '/');
      if (env) status?.check(env);
      const segments = rest.filter(Boolean);
      if (!query || !env || !prefix || rest.join('/') === '') throw new DomainError('route_not_found', 'No such endpoint.');
      delivered = await deliver(ask, { env, prefix, segments });
    } catch (error) {
      delivered = { error, headers: {} };
    }
    await write(req, res, delivered);
  }

  /** The parse step: JSON bodies only, the body read (its error kept for after authentication), its depth. */
  async function parse(req: IncomingMessage, res: ServerResponse, query: Record<string, unknown> | null): Promise<DeliveryAsk> {
    const raw = req as IncomingMessage & { body?: unknown; rawBody?: Buffer };
    let bodyError: unknown;
    // A request without a body (most reads) has nothing to refuse, read or measure.
    if (typeis.hasBody(req)) {
      const refused = await step(jsonBodiesOnly, req, res);
      if (refused) throw refused;
      bodyError = await step(parser, req, res);
      bodyDepthGuard(raw, res, (tooDeep) => {
        if (tooDeep) throw tooDeep;
      });
    }
    const url = req.url ?? '/';
    const at = url.indexOf('?');
    const origin = `${(req.socket as TLSSocket).encrypted ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}`;
    return {
      method: req.method ?? 'GET',
      url,
      query: query ?? (parseQuery(at < 0 ? '' : url.slice(at + 1)) as Record<string, unknown>),
      header: (name) => header(req, name),
      body: raw.body,
      rawBody: raw.rawBody,
      bodyError,
      origin,
      remoteAddress: req.socket.remoteAddress ?? null,
      urlWith: (changes) => urlWith(url, origin, changes),
    };
  }

  /** The write step: an answer, a refusal in `{message, error_code, detail}` (every 401 with the challenge), or the agent endpoint's own writing. */
  async function write(req: IncomingMessage, res: ServerResponse, delivered: Delivered): Promise<void> {
    if ('handOver' in delivered) {
      // The MCP SDK writes the head itself: these go with it.
      for (let i = 0; i < security.length; i += 2) res.setHeader(security[i]!, security[i + 1]!);
      res.setHeader(REQUEST_ID_HEADER, idOfRequest(res));
      try {
        return await delivered.handOver(req as McpRequest, res);
      } catch (error) {
        if (res.headersSent) return void res.destroy(error instanceof Error ? error : undefined);
        return write(req, res, { error, headers: {} });
      }
    }
    if ('error' in delivered) {
      const failed = errorAnswer(delivered.error, idOfRequest(res), deps.log);
      if (failed.status !== 500) answeredWith(res, failed.code);
      const challenge: Record<string, string> = failed.status === 401 ? { 'WWW-Authenticate': WWW_AUTHENTICATE } : {};
      return send(res, failed.status, { ...delivered.headers, ...failed.headers, ...challenge }, JSON.stringify(failed.body));
    }
    send(res, delivered.status, delivered.headers ?? {}, delivered.body);
  }

  /** Counts and times the answer by method, route template and status, and each 403 by its error code. */
  function observe(req: IncomingMessage, res: ServerResponse, route: string): void {
    const started = performance.now();
    res.once('finish', () => {
      const labels = { interface: 'delivery' as const, method: req.method ?? 'GET', route, status: String(res.statusCode) };
      front.metrics.httpDuration.observe(labels, (performance.now() - started) / 1000);
      front.metrics.httpRequests.inc(labels);
      if (res.statusCode === 403) front.metrics.refusals.inc({ interface: 'delivery', route, error_code: errorCodeOf(res) ?? 'none' });
    });
  }

  return {
    routes,
    listener(req, res) {
      requestLine(req, res);
      let found: ReturnType<typeof router.find>;
      try {
        found = router.find(req.method as never, req.url ?? '/');
      } catch {
        found = null;
      }
      observe(req, res, (found?.store as Store | undefined)?.label ?? 'unmatched');
      if (found) found.handler(req, res, found.params, found.store, found.searchParams);
      else void pipeline(req, res, null);
    },
  };
}
