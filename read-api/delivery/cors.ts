import { normalizeOrigin } from '../../domain/delivery-apis/cors.js';
import type { DeliveryApi } from './routing.js';

const ALLOWED_HEADERS = 'Content-Type, Date';
const METHODS = 'GET, HEAD, POST, OPTIONS';

/**
 * CORS headers for public read traffic: none without configured origins; `*` for
 * `["*"]`; otherwise the request's origin when it is listed. `Authorization` is not in
 * the allowed header set.
 */
export function corsHeaders(api: DeliveryApi, origin: string | undefined): Record<string, string> {
  if (api.cors_origins.length === 0 || !origin) return {};
  const wildcard = api.cors_origins[0] === '*';
  const normalized = normalizeOrigin(origin);
  if (!wildcard && (normalized === null || !api.cors_origins.includes(normalized))) return {};
  return {
    'Access-Control-Allow-Origin': wildcard ? '*' : origin,
    'Access-Control-Allow-Methods': METHODS,
    'Access-Control-Allow-Headers': ALLOWED_HEADERS,
    'Access-Control-Max-Age': '600',
    ...(wildcard ? {} : { Vary: 'Origin' }),
  };
}
