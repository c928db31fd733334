import { Router } from 'express';
import { notFound } from '../domain/errors.js';
import { localeId } from '../projections/locales.js';
import type { ReadDeps } from './deps.js';
import { param } from '../api/query.js';
import { localeView } from '../api/views.js';

/** Locales of the environment: all of them as a bare array, as the product answers (docs/decisions/0114), or one by code. */
export function localesReadRouter({ readStore }: ReadDeps): Router {
  const router = Router({ mergeParams: true });
  const locales = () => readStore.collection('locales');

  router.get('/locales/', async (req, res) => {
    const docs = await locales().find({ env: param(req, 'env') }, { sort: [['created_at', 1], ['code', 1]] });
    res.json(docs.map(localeView));
  });

  router.get('/locales/:code/', async (req, res) => {
    const doc = await locales().get(localeId(param(req, 'env'), param(req, 'code')));
    if (!doc) throw notFound('not_found', 'Locale');
    res.json(localeView(doc));
  });

  return router;
}
