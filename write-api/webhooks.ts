import { json, type ApiRoute } from '../api/handler.js';
import type { Position } from '../commands/ports.js';
import { createWebhook, deleteWebhook, rotateSecret, updateWebhook } from '../commands/webhooks.js';
import { notFound } from '../domain/errors.js';
import { findDoc } from '../api/find-doc.js';
import type { WebhookSettings } from '../domain/webhook/events.js';
import { ENV_ENTITIES, EVENT_TYPES } from '../api/event-types.js';
import { param } from '../api/query.js';
import { deliveryView, webhookView } from '../api/webhook-views.js';
import { deliveryId, retryDelivery } from '../projections/webhook-deliveries.js';
import type { WriteDeps } from './deps.js';
import { afterWrite } from './respond.js';
import { documented, validator } from './validate.js';

/** Every `<entity_type>.<event_type>` of the environment's audit log. */
export const WEBHOOK_EVENT_TYPES = ENV_ENTITIES.flatMap((entity) => EVENT_TYPES.map((type) => `${entity}.${type}`));

const properties = {
  url: { type: 'string', minLength: 1, maxLength: 2000 },
  description: { type: 'string', maxLength: 500 },
  event_types: { type: 'array', items: { type: 'string', enum: WEBHOOK_EVENT_TYPES }, uniqueItems: true, maxItems: WEBHOOK_EVENT_TYPES.length },
  collections: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 100 }, uniqueItems: true, maxItems: 100 },
  enabled: { type: 'boolean' },
};
const createBody = validator<WebhookSettings>({
  type: 'object',
  properties: {
    ...properties,
    description: { ...properties.description, default: '' },
    event_types: { ...properties.event_types, default: [] },
    collections: { ...properties.collections, default: [] },
    enabled: { ...properties.enabled, default: true },
  },
  required: ['url'],
  additionalProperties: false,
});
/** PUT: the URL as on create; fields left out keep their values. */
const updateBody = validator<Partial<WebhookSettings>>({ type: 'object', properties, required: ['url'], additionalProperties: false });
/** Rotate and retry take no fields (an empty or missing body). */
const emptyBody = validator<Record<string, never>>({ type: 'object', additionalProperties: false });

documented(createBody, { method: 'POST', path: '/webhooks/', in: 'body' });
documented(updateBody, { method: 'PUT', path: '/webhooks/:key/', in: 'body' });
documented(emptyBody, { method: 'POST', path: '/webhooks/:key/rotate-secret/', in: 'body' }, { method: 'POST', path: '/webhooks/:key/deliveries/:id/retry/', in: 'body' });

/** Webhooks: create, replace, delete, rotate the signing secret, send a delivery again (docs/decisions/0353). */
export function webhooksWriteRoutes(deps: WriteDeps): ApiRoute[] {
  const routes: ApiRoute[] = [];
  const allowPrivate = deps.webhooks?.allowPrivateNetworks ?? false;
  const answer = (position: Position, key: string, status: number, secret?: string) =>
    afterWrite(deps, {
      position,
      status,
      read: async () => {
        const doc = await deps.readStore.collection('webhooks').get(key);
        return doc ? { ...webhookView(doc), ...(secret === undefined ? {} : { secret }) } : null;
      },
      fallback: () => ({ key, ...(secret === undefined ? {} : { secret }) }),
    });

  routes.push({ method: 'post', path: '/webhooks/', handler: async (request) => {
    const input = createBody(request.body);
    const created = await createWebhook(deps.bus, request.context, input, allowPrivate);
    return answer(created.position, created.key, 201, created.secret);
  } });

  routes.push({ method: 'put', path: '/webhooks/:key/', handler: async (request) => {
    const input = updateBody(request.body);
    const key = param(request, 'key');
    const updated = await updateWebhook(deps.bus, request.context, key, input, allowPrivate);
    return answer(updated.position, key, 200);
  } });

  routes.push({ method: 'delete', path: '/webhooks/:key/', handler: async (request) => {
    const deleted = await deleteWebhook(deps.bus, request.context, param(request, 'key'));
    await deps.projections.waitFor(deleted.position, deps.waitTimeoutMs);
    return { status: 204 };
  } });

  routes.push({ method: 'post', path: '/webhooks/:key/rotate-secret/', handler: async (request) => {
    emptyBody(request.body);
    const key = param(request, 'key');
    const rotated = await rotateSecret(deps.bus, request.context, key);
    return answer(rotated.position, key, 200, rotated.secret);
  } });

  // Sends one delivery again now, whatever its status: a change of the sender's record, not an event.
  routes.push({ method: 'post', path: '/webhooks/:key/deliveries/:id/retry/', handler: async (request) => {
    emptyBody(request.body);
    const key = param(request, 'key');
    await findDoc(deps.readStore, 'webhooks', key, { env: param(request, 'env') }, 'webhook_not_found', 'Webhook');
    const doc = await retryDelivery(deps.readStore, deliveryId(key, param(request, 'id')), new Date().toISOString());
    if (!doc) throw notFound('delivery_not_found', 'Delivery');
    deps.webhooks?.wake();
    return json(202, deliveryView(doc));
  } });

  return routes;
}
