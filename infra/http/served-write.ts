import type { IncomingMessage, ServerResponse } from 'node:http';
import { notModified, SURROGATE_KEY } from '../../read-api/delivery/caching.js';
import { corsHeaders } from '../../read-api/delivery/cors.js';
import type { DeliveryApi } from '../../read-api/delivery/routing.js';
import { rememberServed, type ServedAnswer } from '../../read-api/delivery/served-cache.js';
import type { ServedObserver } from '../observability/served-answers.js';

/** The headers of a served answer but CORS and the request id: for a 200, and for a 304. */
export type ServedHeaders = { readonly ok: readonly (string | number)[]; readonly notModified: readonly string[] };

/** `security` is helmet's headers as name, value, name, value... */
export function servedHeaders(security: readonly string[], answer: ServedAnswer): ServedHeaders {
  const common = [...security, 'etag', answer.etag, SURROGATE_KEY, answer.surrogateKeys];
  return { notModified: common, ok: [...common, 'content-type', 'application/json; charset=utf-8', 'content-length', answer.body.length] };
}

/**
 * Writes an answer the delivery front serves itself (docs/decisions/0132, 0182): 304 when
 * `If-None-Match` names its ETag, else 200 with the bytes (none for HEAD), with the API's CORS
 * headers for the request's origin and the request id; then counts and logs it.
 */
export function writeServed(
  req: IncomingMessage,
  res: ServerResponse,
  api: DeliveryApi,
  answer: ServedAnswer,
  headers: ServedHeaders,
  observer: ServedObserver | undefined,
  started: bigint,
): void {
  const origin = req.headers.origin;
  const extra = origin ? Object.entries(corsHeaders(api, origin)).flat() : [];
  const id = observer?.idOf(req);
  if (id !== undefined) extra.push('x-request-id', id);
  const status = notModified(req.headers['if-none-match'], answer.etag) ? 304 : 200;
  const base = status === 304 ? headers.notModified : headers.ok;
  res.writeHead(status, (extra.length ? [...base, ...extra] : base) as (string | number)[]);
  res.end(status === 304 || req.method === 'HEAD' ? undefined : answer.body);
  if (id !== undefined) {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    observer!.answered(req, id, query < 0 ? url : url.slice(0, query), status, started);
  }
}

/**
 * Answers a read the delivery front computes itself (0182, 0245): the answer `computed` yields
 * is remembered and written; a refusal or failure before anything was written goes to
 * `fallback` (the express app answers it with its error envelope).
 */
export function writeComputed(
  req: IncomingMessage,
  res: ServerResponse,
  api: DeliveryApi,
  computed: Promise<{ answer: ServedAnswer; keys: string[] }>,
  { security, observer }: { readonly security: readonly string[]; readonly observer?: ServedObserver },
  fallback: () => void,
): void {
  const started = process.hrtime.bigint();
  computed
    .then(({ answer, keys }) => {
      rememberServed(req, answer, keys);
      writeServed(req, res, api, answer, servedHeaders(security, answer), observer, started);
    })
    .catch((error: unknown) => {
      if (!res.headersSent) fallback();
      else res.destroy(error instanceof Error ? error : new Error(String(error)));
    });
}
