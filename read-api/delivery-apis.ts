import { Router } from 'express';
import { param } from '../api/query.js';
import { notFound } from '../domain/errors.js';
import { connectionId } from '../projections/delivery-apis.js';
import type { ReadDeps } from './deps.js';
import { findApi } from './lookups.js';
import { envelope, pageParams } from './pagination.js';
import { connectionDetails } from '../api/connection-details.js';
import { apiView } from '../api/views.js';

/** Delivery APIs and their collection connections. */
export function deliveryApisReadRouter({ readStore }: ReadDeps): Router {
  const router = Router({ mergeParams: true });

  router.get('/api/', async (req, res) => {
    const page = pageParams(req.query);
    const filter = { env: param(req, 'env') };
    const apis = readStore.collection('apis');
    const [count, docs] = await Promise.all([apis.count(filter), apis.find(filter, { sort: [['created_at', 1]], skip: page.offset, limit: page.limit })]);
    res.json(envelope(req, page, count, docs.map(apiView)));
  });

  router.get('/api/:api/', async (req, res) => {
    res.json(apiView(await findApi(readStore, param(req, 'env'), param(req, 'api'))));
  });

  router.get(['/api/:api/collections/', '/api/:api/folders/'], async (req, res) => {
    const api = await findApi(readStore, param(req, 'env'), param(req, 'api'));
    const page = pageParams(req.query);
    const filter = { api: api.key as string };
    const connections = readStore.collection('api_connections');
    const [count, docs] = await Promise.all([
      connections.count(filter),
      connections.find(filter, { sort: [['created_at', 1]], skip: page.offset, limit: page.limit }),
    ]);
    res.json(envelope(req, page, count, await Promise.all(docs.map((d) => connectionDetails({ readStore }, param(req, 'env'), d)))));
  });

  router.get(['/api/:api/collections/:collection/', '/api/:api/folders/:collection/'], async (req, res) => {
    const api = await findApi(readStore, param(req, 'env'), param(req, 'api'));
    const doc = await readStore.collection('api_connections').get(connectionId(api.key as string, param(req, 'collection')));
    if (!doc) throw notFound('collection_not_found', 'Connected collection');
    res.json(await connectionDetails({ readStore }, param(req, 'env'), doc));
  });

  return router;
}
