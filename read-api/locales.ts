import { Router } from 'express';
import { notFound } from '../domain/errors.js';
import { localeId } from '../projections/locales.js';
import type { ReadDeps } from './deps.js';
import { envelope, pageParams } from './pagination.js';
import { param } from './query.js';
import { localeView } from './views.js';

/** Locales of the environment: a page in the list envelope (docs/decisions/0013), or one by code. */
export function localesReadRouter({ readStore }: ReadDeps): Router {
  const router = Router({ mergeParams: true });
  const locales = () => readStore.collection('locales');

  router.get('/locales/', async (req, res) => {
    const page = pageParams(req.query);
    const filter = { env: param(req, 'env') };
    const [count, docs] = await Promise.all([
      locales().count(filter),
      locales().find(filter, { sort: [['created_at', 1], ['code', 1]], skip: page.offset, limit: page.limit }),
    ]);
    res.json(envelope(req, page, count, docs.map(localeView)));
  });

  router.get('/locales/:code/', async (req, res) => {
    const doc = await locales().get(localeId(param(req, 'env'), param(req, 'code')));
    if (!doc) throw notFound('not_found', 'Locale');
    res.json(localeView(doc));
  });

  return router;
}
