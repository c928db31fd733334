import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse } from 'node:querystring';
import type { TLSSocket } from 'node:tls';
import type { SearchIndex } from '../../projections/ports.js';
import { listAnswer } from '../../read-api/delivery/list.js';
import type { DeliveryApi, DeliveryRouting } from '../../read-api/delivery/routing.js';
import type { Match } from '../../read-api/delivery/scope.js';
import type { ServedObserver } from '../observability/served-answers.js';
import { writeComputed } from './served-write.js';

export type FrontListDeps = {
  readonly index: SearchIndex;
  readonly routing: DeliveryRouting;
  /** helmet's headers, as name, value, name, value... */
  readonly security: readonly string[];
  readonly observer?: ServedObserver;
};

export type FrontList = (req: IncomingMessage, res: ServerResponse, at: { env: string; api: DeliveryApi; match: Match }, fallback: () => void) => void;

/**
 * The request's URL with some query parameters replaced, as `urlWith` (read-api/pagination.ts)
 * builds it in express: the same serialization, with the query written back once instead of
 * after every change (each change of `url.searchParams` serializes the whole query again).
 */
export function urlWith(req: IncomingMessage, changes: Record<string, string | null>): string {
  const protocol = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  const url = new URL(req.url ?? '/', `${protocol}://${req.headers.host ?? 'localhost'}`);
  const params = new URLSearchParams(url.search);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) params.delete(name);
    else params.set(name, value);
  }
  url.search = params.toString();
  return url.toString();
}

/**
 * A list read that is not remembered yet, answered without the express app
 * (docs/decisions/0182): the same page (`listAnswer`, the express handler's own code), the same
 * headers, remembered like the express app's answer. Any refusal (a bad parameter, a method the
 * connection does not allow) or failure goes to `fallback`, the express app, which answers it
 * with its error envelope: nothing has been written by then.
 */
export function frontList({ index, routing, security, observer }: FrontListDeps): FrontList {
  return (req, res, { env, api, match }, fallback) => {
    const url = req.url ?? '/';
    const at = url.indexOf('?');
    // Express 5's default "simple" query parser is node:querystring's.
    const query = parse(at < 0 ? '' : url.slice(at + 1)) as Record<string, unknown>;
    // The front admits only callers that read every collection of the API (DeliveryAuth.readsFromMemory, 0161).
    const computed = listAnswer({ query, urlWith: (changes) => urlWith(req, changes) }, { env, api, match, index, routing, readable: () => true });
    writeComputed(req, res, api, computed, { security, observer }, fallback);
  };
}
