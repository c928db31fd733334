import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse } from 'node:querystring';
import { servedAnswer } from '../../read-api/delivery/caching.js';
import { oneAnswer } from '../../read-api/delivery/get-one.js';
import type { DeliveryApi } from '../../read-api/delivery/routing.js';
import type { Match } from '../../read-api/delivery/scope.js';
import { rememberServed } from '../../read-api/delivery/served-cache.js';
import type { FrontListDeps } from './delivery-front-list.js';
import { servedHeaders, writeServed } from './served-write.js';

export type FrontOne = (req: IncomingMessage, res: ServerResponse, at: { env: string; api: DeliveryApi; match: Match; key: string }, fallback: () => void) => void;

/**
 * A get-one read that is not remembered yet, answered without the express app, as list reads are
 * (docs/decisions/0182, 0245): the express handler's own code (`oneAnswer`), the same headers,
 * remembered like the express app's answer. Any refusal (an unknown key, a bad parameter, a
 * method the connection does not allow) or failure goes to `fallback`, the express app, which
 * answers it with its error envelope: nothing has been written by then.
 */
export function frontOne({ index, routing, security, observer }: FrontListDeps): FrontOne {
  return (req, res, { env, api, match, key }, fallback) => {
    const started = process.hrtime.bigint();
    const url = req.url ?? '/';
    const at = url.indexOf('?');
    // Express 5's default "simple" query parser is node:querystring's.
    const query = parse(at < 0 ? '' : url.slice(at + 1)) as Record<string, unknown>;
    // The front admits only callers that read every collection of the API (DeliveryAuth.readsFromMemory, 0161).
    oneAnswer(query, key, { env, api, match, index, routing, readable: () => true })
      .then(({ item, keys }) => {
        const { answer, keys: surrogateKeys } = servedAnswer(item, keys);
        rememberServed(req, answer, surrogateKeys);
        writeServed(req, res, api, answer, servedHeaders(security, answer), observer, started);
      })
      .catch((error: unknown) => {
        if (!res.headersSent) fallback();
        else res.destroy(error instanceof Error ? error : new Error(String(error)));
      });
  };
}
