import { get, json, type ApiRequest, type ApiRoute } from '../api/handler.js';
import type { ReadDeps } from './deps.js';
import { findDoc } from '../api/find-doc.js';
import { listPage } from './pagination.js';
import { param } from '../api/query.js';
import { deliveryView, scheduleView, webhookView } from '../api/webhook-views.js';

/** Webhooks and their deliveries; the scheduled publishes of the environment (docs/decisions/0353, 0357). */
export function webhooksReadRoutes({ readStore }: ReadDeps): ApiRoute[] {
  const webhookOf = (request: ApiRequest) => findDoc(readStore, 'webhooks', param(request, 'key'), { env: param(request, 'env') }, 'webhook_not_found', 'Webhook');
  const inEnv = (request: ApiRequest) => ({ env: param(request, 'env') });
  return [
    get('/webhooks/', (request) => listPage(request, readStore.collection('webhooks'), inEnv(request), [['created_at', 1], ['_id', 1]], webhookView)),
    get('/webhooks/:key/', async (request) => json(200, webhookView(await webhookOf(request)))),
    // Newest first.
    get('/webhooks/:key/deliveries/', async (request) => listPage(request, readStore.collection('webhook_deliveries'), { webhook: (await webhookOf(request))._id }, [['position', -1]], deliveryView)),
    // What is due, soonest first.
    get('/schedules/', (request) => listPage(request, readStore.collection('schedules'), inEnv(request), [['publish_at', 1], ['_id', 1]], scheduleView)),
  ];
}
