import { Router, type Request } from 'express';
import type { Filter } from '../projections/ports.js';
import type { ReadDeps } from './deps.js';
import { findCollection, findResource, findRevision } from './lookups.js';
import { envelope, pageParams } from './pagination.js';
import { param, queryEnum } from '../api/query.js';
import { revisionView } from '../api/views.js';


/** Revisions of a resource: list (by number), one, and its payload. */
export function revisionsReadRouter({ readStore }: ReadDeps): Router {
  const router = Router({ mergeParams: true });
  const resourceOf = async (req: Request) => {
    const collection = await findCollection(readStore, param(req, 'env'), param(req, 'collection'));
    return findResource(readStore, collection.key as string, param(req, 'resource'));
  };

  router.get('/', async (req, res) => {
    const resource = await resourceOf(req);
    const page = pageParams(req.query);
    const ordering = queryEnum(req.query, 'ordering', ['number', '-number', 'created_at', '-created_at'], 'number');
    const status = queryEnum(req.query, 'status', ['draft', 'published', 'unpublished', ''], '');
    const filter: Filter = status === '' ? { resource: resource._id } : { resource: resource._id, status };
    const revisions = readStore.collection('revisions');
    const [count, docs] = await Promise.all([
      revisions.count(filter),
      revisions.find(filter, { sort: [['number', ordering.startsWith('-') ? -1 : 1]], skip: page.offset, limit: page.limit }),
    ]);
    res.json(envelope(req, page, count, docs.map(revisionView)));
  });

  router.get('/:revision/', async (req, res) => {
    const resource = await resourceOf(req);
    res.json(revisionView(await findRevision(readStore, resource._id, param(req, 'revision'))));
  });

  router.get('/:revision/data/', async (req, res) => {
    const resource = await resourceOf(req);
    res.json((await findRevision(readStore, resource._id, param(req, 'revision'))).data);
  });

  return router;
}
