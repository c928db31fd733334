import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse } from 'node:querystring';
import type { Response } from 'express';
import { FORWARD_HEADER } from '../../read-api/delivery/auth.js';
import { corsHeaders } from '../../read-api/delivery/cors.js';
import { resolve } from '../../read-api/delivery/router.js';
import type { DeliveryApi, DeliveryRouting } from '../../read-api/delivery/routing.js';
import type { Match } from '../../read-api/delivery/scope.js';
import { searchAnswer, type SearchDeps } from '../../read-api/delivery/search/answer.js';
import type { ServedObserver } from '../observability/served-answers.js';
import { holdsNonFiniteNumber, MAX_BODY_DEPTH, nestsDeeperThan } from './body-depth.js';
import { urlWith } from './delivery-front-list.js';
import { plainJsonBody } from './plain-json-body.js';

/** BODY_LIMIT (`8mb`, as the body parser counts it) in bytes. */
const BODY_LIMIT_BYTES = 8 * 1024 * 1024;

export type FrontSearchDeps = {
  readonly search: SearchDeps;
  readonly routing: DeliveryRouting;
  /** helmet's headers, as name, value, name, value... */
  readonly security: readonly string[];
  readonly observer?: ServedObserver;
  /** Whether the environment is served now (neither disabled nor deleted). */
  readonly served: (env: string) => boolean;
  /** Whether the reader may read the collection and every other one of the API, from what is known in memory (delivery-front.ts). */
  readonly allowed: (req: IncomingMessage, env: string, api: DeliveryApi, folder: string) => boolean;
};

/**
 * Answers a `POST .../_search` or calls `fallback`, the express app, with the request untouched
 * or its body already read (then `req.body`, `req.rawBody` and a parse error in
 * `res.locals.bodyError`, as the express app's body parser leaves them; the parser then sees the
 * body read and keeps them).
 */
export type FrontSearch = (req: IncomingMessage, res: ServerResponse, fallback: () => void) => void;

/** Where a `_search` request is addressed: its environment, API and collection, or null for anything the front leaves to the express app. */
function addressOf(url: string, routing: DeliveryRouting): { env: string; api: DeliveryApi; segments: string[] } | null {
  const at = url.indexOf('?');
  const path = at < 0 ? url : url.slice(0, at);
  // Percent-encoding and empty segments are the express router's to read.
  if (path.includes('%') || path.includes('//')) return null;
  const [env, prefix, ...segments] = path.split('/').filter(Boolean);
  if (env === undefined || prefix === undefined || segments.pop() !== '_search' || segments.some((s) => s.startsWith('_'))) return null;
  const api = routing.api(env, prefix);
  return api ? { env, api, segments } : null;
}

/**
 * `_search` answered without the express app (docs/decisions/0260): for a reader the front admits
 * (as for lists: anonymous on a public API, or a Simple or Bearer key known to read every
 * collection of it) and a plain JSON body, the body is read and parsed as the express app's parser
 * would, and the express handler's own code (`searchAnswer`) computes the answer, written with the
 * same headers, request id, log line and metrics. Any other request, and every refusal (a body
 * that does not parse or nests too deep, a bad parameter, an unknown field, a method the
 * connection does not allow) or failure goes to the express app, with the body handed over, which
 * answers it with its status and error envelope: nothing has been written by then.
 */
export function frontSearch({ search, routing, security, observer, served, allowed }: FrontSearchDeps): FrontSearch {
  return (req, res, fallback) => {
    const url = req.url ?? '/';
    const address = req.headers[FORWARD_HEADER] === undefined ? addressOf(url, routing) : null;
    if (!address || !served(address.env)) return fallback();
    const { env, api, segments } = address;
    let match: Match;
    try {
      match = resolve(api, segments);
    } catch {
      return fallback();
    }
    if (!allowed(req, env, api, match.route.folder)) return fallback();
    const started = process.hrtime.bigint();
    // The express app's parser is left the requests this one does not take (no length, another type, chunked...).
    const read = plainJsonBody(BODY_LIMIT_BYTES, () => fallback()) as unknown as (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
    read(req, res, (error) => {
      const body = (req as { body?: unknown }).body;
      if (error || nestsDeeperThan(body, MAX_BODY_DEPTH) || holdsNonFiniteNumber(body)) {
        if (error) (res as unknown as Response).locals = Object.assign(Object.create(null) as Record<string, unknown>, { bodyError: error });
        return fallback();
      }
      const at = url.indexOf('?');
      // Express 5's default "simple" query parser is node:querystring's.
      const query = parse(at < 0 ? '' : url.slice(at + 1)) as Record<string, unknown>;
      // The front admits only callers that read every collection of the API (DeliveryAuth.readsFromMemory, 0161).
      searchAnswer(search, { query, body, urlWith: (changes) => urlWith(req, changes) }, { env, api, match, routing, readable: () => true }).then(
        (text) => write(req, res, api, text, started),
        () => (res.headersSent ? res.destroy() : fallback()),
      );
    });
  };

  /** A 200 with the headers the express app gives a `_search` answer; then counted and logged. */
  function write(req: IncomingMessage, res: ServerResponse, api: DeliveryApi, text: string, started: bigint): void {
    const headers: (string | number)[] = [...security, 'content-type', 'application/json; charset=utf-8', 'content-length', Buffer.byteLength(text)];
    const origin = req.headers.origin;
    if (origin) headers.push(...Object.entries(corsHeaders(api, origin)).flat());
    const id = observer?.idOf(req);
    if (id !== undefined) headers.push('x-request-id', id);
    res.writeHead(200, headers);
    res.end(text);
    if (id !== undefined) {
      const url = req.url ?? '/';
      const at = url.indexOf('?');
      observer!.answered(req, id, at < 0 ? url : url.slice(0, at), 200, started);
    }
  }
}
