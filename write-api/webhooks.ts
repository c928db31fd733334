import { Router, type Response } from 'express';
import type { Position } from '../commands/ports.js';
import { createWebhook, deleteWebhook, rotateSecret, updateWebhook } from '../commands/webhooks.js';
import { notFound } from '../domain/errors.js';
import type { WebhookSettings } from '../domain/webhook/events.js';
import { ENV_ENTITIES, EVENT_TYPES } from '../read-api/audit-events.js';
import { param } from '../read-api/query.js';
import { deliveryView, webhookView } from '../read-api/webhook-views.js';
import { deliveryId, retryDelivery } from '../projections/webhook-deliveries.js';
import { commandContext } from './context.js';
import type { WriteDeps } from './deps.js';
import { respondAfterWrite } from './respond.js';
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
export function webhooksWriteRouter(deps: WriteDeps): Router {
  const router = Router({ mergeParams: true });
  const allowPrivate = deps.webhooks?.allowPrivateNetworks ?? false;
  const answer = (res: Response, position: Position, key: string, status: number, secret?: string) =>
    respondAfterWrite(deps, res, {
      position,
      status,
      read: async () => {
        const doc = await deps.readStore.collection('webhooks').get(key);
        return doc ? { ...webhookView(doc), ...(secret === undefined ? {} : { secret }) } : null;
      },
      fallback: () => ({ key, ...(secret === undefined ? {} : { secret }) }),
    });

  router.post('/webhooks/', async (req, res) => {
    const input = createBody(req.body);
    const created = await createWebhook(deps.bus, commandContext(req, res), input, allowPrivate);
    await answer(res, created.position, created.key, 201, created.secret);
  });

  router.put('/webhooks/:key/', async (req, res) => {
    const input = updateBody(req.body);
    const key = param(req, 'key');
    const updated = await updateWebhook(deps.bus, commandContext(req, res), key, input, allowPrivate);
    await answer(res, updated.position, key, 200);
  });

  router.delete('/webhooks/:key/', async (req, res) => {
    const deleted = await deleteWebhook(deps.bus, commandContext(req, res), param(req, 'key'));
    await deps.projections.waitFor(deleted.position, deps.waitTimeoutMs);
    res.status(204).end();
  });

  router.post('/webhooks/:key/rotate-secret/', async (req, res) => {
    emptyBody(req.body);
    const key = param(req, 'key');
    const rotated = await rotateSecret(deps.bus, commandContext(req, res), key);
    await answer(res, rotated.position, key, 200, rotated.secret);
  });

  // Sends one delivery again now, whatever its status: a change of the sender's record, not an event.
  router.post('/webhooks/:key/deliveries/:id/retry/', async (req, res) => {
    emptyBody(req.body);
    const key = param(req, 'key');
    const hook = await deps.readStore.collection('webhooks').get(key);
    if (!hook || hook.env !== param(req, 'env')) throw notFound('webhook_not_found', 'Webhook');
    const doc = await retryDelivery(deps.readStore, deliveryId(key, param(req, 'id')), new Date().toISOString());
    if (!doc) throw notFound('delivery_not_found', 'Delivery');
    deps.webhooks?.wake();
    res.status(202).json(deliveryView(doc));
  });

  return router;
}
