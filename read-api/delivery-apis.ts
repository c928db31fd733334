import { get, json, type ApiRequest, type ApiRoute } from '../api/handler.js';
import { param } from '../api/query.js';
import { connectionId } from '../projections/delivery-apis.js';
import type { Doc } from '../projections/ports.js';
import type { ReadDeps } from './deps.js';
import { findDoc } from '../api/find-doc.js';
import { findApi } from './lookups.js';
import { listPage } from './pagination.js';
import { connectionDetails } from '../api/connection-details.js';
import { apiView } from '../api/views.js';

/** Delivery APIs and their collection connections. */
export function deliveryApisReadRoutes({ readStore }: ReadDeps): ApiRoute[] {
  const apiOf = (request: ApiRequest) => findApi(readStore, param(request, 'env'), param(request, 'api'));
  return [
    get('/api/', (request) => listPage(request, readStore.collection('apis'), { env: param(request, 'env') }, [['created_at', 1]], apiView)),
    get('/api/:api/', async (request) => json(200, apiView(await apiOf(request)))),
    get(['/api/:api/collections/', '/api/:api/folders/'], async (request) => {
      const api = await apiOf(request);
      const details = (doc: Doc) => connectionDetails({ readStore }, param(request, 'env'), doc);
      return listPage(request, readStore.collection('api_connections'), { api: api.key as string }, [['created_at', 1]], details);
    }),
    get(['/api/:api/collections/:collection/', '/api/:api/folders/:collection/'], async (request) => {
      const api = await apiOf(request);
      const doc = await findDoc(readStore, 'api_connections', connectionId(api.key as string, param(request, 'collection')), {}, 'collection_not_found', 'Connected collection');
      return json(200, await connectionDetails({ readStore }, param(request, 'env'), doc));
    }),
  ];
}
