import { Router } from 'express';
import { notFound } from '../domain/errors.js';
import type { ReadDeps } from './deps.js';
import { envelope, pageParams } from './pagination.js';
import { PERMISSION_BASES } from '../api/permission-paths.js';
import { param } from '../api/query.js';
import { apiKeyView } from '../api/views.js';

export const MANAGEMENT_KEYS = '/permissions/management-api/api-keys';

/** Management and delivery API keys of an environment (never a secret, a hash or a token). */
export function apiKeysReadRouter({ readStore }: ReadDeps): Router {
  const router = Router({ mergeParams: true });
  const keys = () => readStore.collection('api_keys');

  for (const { base, kind } of PERMISSION_BASES) {
    router.get(`${base}/api-keys/`, async (req, res) => {
      const page = pageParams(req.query);
      const filter = { env: param(req, 'env'), kind };
      const [count, docs] = await Promise.all([keys().count(filter), keys().find(filter, { sort: [['created_at', 1]], skip: page.offset, limit: page.limit })]);
      res.json(envelope(req, page, count, docs.map(apiKeyView)));
    });

    router.get(`${base}/api-keys/:key/`, async (req, res) => {
      const doc = await keys().get(param(req, 'key'));
      if (!doc || doc.env !== param(req, 'env') || doc.kind !== kind) throw notFound('not_found', 'API key');
      res.json(apiKeyView(doc));
    });
  }

  return router;
}
