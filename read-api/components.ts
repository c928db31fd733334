import { Router, type Request } from 'express';
import { notFound } from '../domain/errors.js';
import type { Doc, Filter, ReadStore } from '../projections/ports.js';
import type { ReadDeps } from './deps.js';
import { envelope, pageParams } from './pagination.js';
import { queryDatetime, queryEnum, param } from '../api/query.js';
import { componentView } from '../api/views.js';
import { COMPONENT } from '../api/component-path.js';

const CREATED_AT = { created_at: '$eq', created_at__gt: '$gt', created_at__gte: '$gte', created_at__lt: '$lt', created_at__lte: '$lte' } as const;

/** The list filter: the environment plus the `created_at` operators (422 on an invalid datetime). */
function listFilter(req: Request): Filter {
  const and: Filter[] = [{ env: param(req, 'env') }];
  for (const [name, op] of Object.entries(CREATED_AT)) {
    const at = queryDatetime(req.query, name);
    if (at !== undefined) and.push({ created_at: { [op]: at } });
  }
  return { $and: and };
}

/** A component of the environment, or 404 component_not_found. */
export async function findComponent(store: ReadStore, env: string, key: string): Promise<Doc> {
  const doc = await store.collection('components').get(key);
  if (!doc || doc.env !== env) throw notFound('component_not_found', 'Component');
  return doc;
}

/** Components: list (with `created_at` filters and ordering) and get. */
export function componentsReadRouter({ readStore }: ReadDeps): Router {
  const router = Router({ mergeParams: true });

  router.get('/components/', async (req, res) => {
    const page = pageParams(req.query);
    const ordering = queryEnum(req.query, 'ordering', ['created_at', '-created_at'], 'created_at');
    const filter = listFilter(req);
    const components = readStore.collection('components');
    const [count, docs] = await Promise.all([
      components.count(filter),
      components.find(filter, { sort: [['created_at', ordering === 'created_at' ? 1 : -1]], skip: page.offset, limit: page.limit }),
    ]);
    res.json(envelope(req, page, count, docs.map(componentView)));
  });

  router.get(COMPONENT, async (req, res) => {
    res.json(componentView(await findComponent(readStore, param(req, 'env'), param(req, 'component'))));
  });

  return router;
}
