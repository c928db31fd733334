import type { IncomingMessage, ServerResponse } from 'node:http';
import { etagOf, notModified, SURROGATE_KEY } from '../../read-api/delivery/caching.js';
import { corsHeaders } from '../../read-api/delivery/cors.js';
import type { DeliveryApi } from '../../read-api/delivery/routing.js';
import { remembers, rememberServed, type ServedAnswer } from '../../read-api/delivery/served-cache.js';
import type { ServedObserver } from '../observability/served-answers.js';

/** The headers of a served answer but CORS and the request id: for a 200, and for a 304. */
export type ServedHeaders = { readonly ok: readonly (string | number)[]; readonly notModified: readonly string[] };

/** An answer to write: a remembered one's bytes, or the text of one computed for this request only (docs/decisions/0267). */
export type WrittenAnswer = Omit<ServedAnswer, 'body'> & { readonly body: Buffer | string };

/** `security` is helmet's headers as name, value, name, value... */
export function servedHeaders(security: readonly string[], answer: WrittenAnswer): ServedHeaders {
  const common = [...security, 'etag', answer.etag, SURROGATE_KEY, answer.surrogateKeys];
  const length = typeof answer.body === 'string' ? Buffer.byteLength(answer.body) : answer.body.length;
  return { notModified: common, ok: [...common, 'content-type', 'application/json; charset=utf-8', 'content-length', length] };
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
  answer: WrittenAnswer,
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
 * (its JSON text and surrogate keys) is written, and remembered when the served cache admitted
 * the request; a refusal or failure before anything was written goes to `fallback` (the express
 * app answers it with its error envelope). An answer not remembered is written as text, without
 * making a Buffer of it first (0267).
 */
export function writeComputed(
  req: IncomingMessage,
  res: ServerResponse,
  api: DeliveryApi,
  computed: Promise<{ text: string; keys: Iterable<string> }>,
  { security, observer }: { readonly security: readonly string[]; readonly observer?: ServedObserver },
  fallback: () => void,
): void {
  const started = process.hrtime.bigint();
  computed
    .then(({ text, keys }) => {
      const distinct = [...new Set(keys)];
      const etag = etagOf(text);
      const surrogateKeys = distinct.join(' ');
      let answer: WrittenAnswer = { body: text, etag, surrogateKeys };
      if (remembers(req)) {
        const kept = { body: Buffer.from(text), etag, surrogateKeys };
        rememberServed(req, kept, distinct);
        answer = kept;
      }
      writeServed(req, res, api, answer, servedHeaders(security, answer), observer, started);
    })
    .catch((error: unknown) => {
      if (!res.headersSent) fallback();
      else res.destroy(error instanceof Error ? error : new Error(String(error)));
    });
}
