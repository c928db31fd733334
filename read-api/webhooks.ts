import { Router } from 'express';
import { notFound } from '../domain/errors.js';
import type { ReadDeps } from './deps.js';
import { envelope, pageParams } from './pagination.js';
import { param } from '../api/query.js';
import { deliveryView, scheduleView, webhookView } from '../api/webhook-views.js';

/** Webhooks and their deliveries; the scheduled publishes of the environment (docs/decisions/0353, 0357). */
export function webhooksReadRouter({ readStore }: ReadDeps): Router {
  const router = Router({ mergeParams: true });
  const findWebhook = async (env: string, key: string) => {
    const doc = await readStore.collection('webhooks').get(key);
    if (!doc || doc.env !== env) throw notFound('webhook_not_found', 'Webhook');
    return doc;
  };

  router.get('/webhooks/', async (req, res) => {
    const page = pageParams(req.query);
    const filter = { env: param(req, 'env') };
    const hooks = readStore.collection('webhooks');
    const [count, docs] = await Promise.all([hooks.count(filter), hooks.find(filter, { sort: [['created_at', 1], ['_id', 1]], skip: page.offset, limit: page.limit })]);
    res.json(envelope(req, page, count, docs.map(webhookView)));
  });

  router.get('/webhooks/:key/', async (req, res) => {
    res.json(webhookView(await findWebhook(param(req, 'env'), param(req, 'key'))));
  });

  // Newest first.
  router.get('/webhooks/:key/deliveries/', async (req, res) => {
    const hook = await findWebhook(param(req, 'env'), param(req, 'key'));
    const page = pageParams(req.query);
    const filter = { webhook: hook._id };
    const deliveries = readStore.collection('webhook_deliveries');
    const [count, docs] = await Promise.all([deliveries.count(filter), deliveries.find(filter, { sort: [['position', -1]], skip: page.offset, limit: page.limit })]);
    res.json(envelope(req, page, count, docs.map(deliveryView)));
  });

  // What is due, soonest first.
  router.get('/schedules/', async (req, res) => {
    const page = pageParams(req.query);
    const filter = { env: param(req, 'env') };
    const schedules = readStore.collection('schedules');
    const [count, docs] = await Promise.all([
      schedules.count(filter),
      schedules.find(filter, { sort: [['publish_at', 1], ['_id', 1]], skip: page.offset, limit: page.limit }),
    ]);
    res.json(envelope(req, page, count, docs.map(scheduleView)));
  });

  return router;
}
