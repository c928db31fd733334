import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse } from 'node:querystring';
import { oneAnswer } from '../../read-api/delivery/get-one.js';
import type { DeliveryApi } from '../../read-api/delivery/routing.js';
import type { Match } from '../../read-api/delivery/scope.js';
import type { FrontListDeps } from './delivery-front-list.js';
import { writeComputed } from './served-write.js';

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
    const url = req.url ?? '/';
    const at = url.indexOf('?');
    const query = parse(at < 0 ? '' : url.slice(at + 1)) as Record<string, unknown>;
    // The same readers as for lists (delivery-front-list.ts): every collection of the API is theirs.
    const computed = oneAnswer(query, key, { env, api, match, index, routing, readable: () => true }).then(({ item, keys }) => ({ text: JSON.stringify(item), keys }));
    writeComputed(req, res, api, computed, { security, observer }, fallback);
  };
}
