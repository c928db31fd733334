import { get, json, type ApiRoute } from '../api/handler.js';
import { localeId } from '../projections/locales.js';
import type { ReadDeps } from './deps.js';
import { findDoc } from '../api/find-doc.js';
import { param } from '../api/query.js';
import { localeView } from '../api/views.js';

/** Locales of the environment: all of them as a bare array, as the product answers (docs/decisions/0114), or one by code. */
export function localesReadRoutes({ readStore }: ReadDeps): ApiRoute[] {
  return [
    get('/locales/', async (request) => json(200, (await readStore.collection('locales').find({ env: param(request, 'env') }, { sort: [['created_at', 1], ['code', 1]] })).map(localeView))),
    get('/locales/:code/', async (request) => json(200, localeView(await findDoc(readStore, 'locales', localeId(param(request, 'env'), param(request, 'code')), {}, 'not_found', 'Locale')))),
  ];
}
