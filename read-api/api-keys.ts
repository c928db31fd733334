import { get, json, type ApiRoute } from '../api/handler.js';
import type { ReadDeps } from './deps.js';
import { findDoc } from '../api/find-doc.js';
import { listPage } from './pagination.js';
import { PERMISSION_BASES } from '../api/permission-paths.js';
import { param } from '../api/query.js';
import { apiKeyView } from '../api/views.js';

/** Management and delivery API keys of an environment (never a secret, a hash or a token). */
export function apiKeysReadRoutes({ readStore }: ReadDeps): ApiRoute[] {
  return PERMISSION_BASES.flatMap(({ base, kind }): ApiRoute[] => [
    get(`${base}/api-keys/`, (request) => listPage(request, readStore.collection('api_keys'), { env: param(request, 'env'), kind }, [['created_at', 1]], apiKeyView)),
    get(`${base}/api-keys/:key/`, async (request) => json(200, apiKeyView(await findDoc(readStore, 'api_keys', param(request, 'key'), { env: param(request, 'env'), kind }, 'not_found', 'API key')))),
  ]);
}
