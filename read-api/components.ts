import { get, json, type ApiRequest, type ApiRoute } from '../api/handler.js';
import type { Filter } from '../projections/ports.js';
import type { ReadDeps } from './deps.js';
import { findComponent } from './lookups.js';
import { listPage } from './pagination.js';
import { queryDatetime, queryEnum, param } from '../api/query.js';
import { componentView } from '../api/views.js';
import { COMPONENT } from '../api/component-path.js';

const CREATED_AT = { created_at: '$eq', created_at__gt: '$gt', created_at__gte: '$gte', created_at__lt: '$lt', created_at__lte: '$lte' } as const;

/** The `created_at` operators of a list query, each a condition (422 on an invalid datetime). */
export function createdAtFilters(query: ApiRequest['query']): Filter[] {
  return Object.entries(CREATED_AT).flatMap(([name, op]) => {
    const at = queryDatetime(query, name);
    return at === undefined ? [] : [{ created_at: { [op]: at } }];
  });
}

/** Components: list (with `created_at` filters and ordering) and get. */
export function componentsReadRoutes({ readStore }: ReadDeps): ApiRoute[] {
  return [
    get('/components/', (request) => {
      const ordering = queryEnum(request.query, 'ordering', ['created_at', '-created_at'], 'created_at');
      const filter = { $and: [{ env: param(request, 'env') }, ...createdAtFilters(request.query)] };
      return listPage(request, readStore.collection('components'), filter, [['created_at', ordering === 'created_at' ? 1 : -1]], componentView);
    }),
    get(COMPONENT, async (request) => json(200, componentView(await findComponent(readStore, param(request, 'env'), param(request, 'component'))))),
  ];
}
