import { Router, type Request } from 'express';
import type { Filter } from '../projections/ports.js';
import type { ReadDeps } from './deps.js';
import { findCollection, findResource } from './lookups.js';
import { envelope, MAX_LIMIT, pageParams } from './pagination.js';
import { queryDatetime, queryEnum, queryString, param } from '../api/query.js';
import { withVectorsSize } from '../api/vectors-size.js';
import { resourceView } from '../api/views.js';


/** The list filters of the specification's Resources section. */
function listFilter(req: Request, folder: string, limit: number): Filter {
  const q = req.query;
  const and: Filter[] = [{ folder }];
  const status = queryEnum(q, 'status', ['published', 'draft', ''], '');
  if (status === 'published') and.push({ current_revision: { $ne: null } });
  if (status === 'draft') and.push({ current_revision: null });
  const ops = { created_at: '$eq', created_at__gt: '$gt', created_at__gte: '$gte', created_at__lt: '$lt', created_at__lte: '$lte' } as const;
  for (const [name, op] of Object.entries(ops)) {
    const at = queryDatetime(q, name);
    if (at !== undefined) and.push({ created_at: { [op]: at } });
  }
  const contentType = queryString(q, 'content_type');
  if (contentType !== undefined) and.push({ content_type: contentType });
  const owner = queryString(q, 'resource_owner');
  if (owner !== undefined) and.push({ resource_owner: owner });
  const externalId = queryString(q, 'external_id');
  if (externalId !== undefined) and.push({ external_id: externalId });
  const keys = queryString(q, 'key__in');
  if (keys !== undefined) and.push({ key: { $in: keys.split(',').filter(Boolean).slice(0, Math.min(limit, MAX_LIMIT)) } });
  return { $and: and };
}

/** Resources of a collection (management view) and their published data. */
export function resourcesReadRouter({ readStore, searchIndex }: ReadDeps): Router {
  const router = Router({ mergeParams: true });

  router.get('/', async (req, res) => {
    const collection = await findCollection(readStore, param(req, 'env'), param(req, 'collection'));
    const page = pageParams(req.query);
    const ordering = queryEnum(req.query, 'ordering', ['created_at', '-created_at'], 'created_at');
    const filter = listFilter(req, collection.key as string, page.limit);
    const resources = readStore.collection('resources');
    const [count, docs] = await Promise.all([
      resources.count(filter),
      resources.find(filter, { sort: [['created_at', ordering === 'created_at' ? 1 : -1]], skip: page.offset, limit: page.limit }),
    ]);
    const env = param(req, 'env');
    res.json(envelope(req, page, count, await Promise.all(docs.map((doc) => withVectorsSize(searchIndex, env, resourceView(doc))))));
  });

  router.get('/:resource/', async (req, res) => {
    const collection = await findCollection(readStore, param(req, 'env'), param(req, 'collection'));
    const doc = await findResource(readStore, collection.key as string, param(req, 'resource'));
    if (typeof doc.current_revision === 'string') res.set('ETag', `"${doc.current_revision}"`);
    res.json(await withVectorsSize(searchIndex, param(req, 'env'), resourceView(doc)));
  });

  router.get('/:resource/data/', async (req, res) => {
    const collection = await findCollection(readStore, param(req, 'env'), param(req, 'collection'));
    const resource = await findResource(readStore, collection.key as string, param(req, 'resource'));
    const current = resource.current_revision as string | null;
    if (current === null) return res.status(204).end();
    const revision = await readStore.collection('revisions').get(current);
    if (!revision) return res.status(202).json({ message: 'The revision is still being processed.' });
    return res.json(revision.data);
  });

  return router;
}
