import { get, json, type ApiRequest, type ApiRoute } from '../api/handler.js';
import type { Filter } from '../projections/ports.js';
import type { ReadDeps } from './deps.js';
import { findCollection, findResource, findRevision } from './lookups.js';
import { listPage } from './pagination.js';
import { param, queryEnum } from '../api/query.js';
import { revisionView } from '../api/views.js';

/** Revisions of a resource: list (by number), one, and its payload. */
export function revisionsReadRoutes({ readStore }: ReadDeps): ApiRoute[] {
  const resourceOf = async (request: ApiRequest) => {
    const collection = await findCollection(readStore, param(request, 'env'), param(request, 'collection'));
    return findResource(readStore, collection.key as string, param(request, 'resource'));
  };
  const revisionOf = async (request: ApiRequest) => findRevision(readStore, (await resourceOf(request))._id, param(request, 'revision'));

  return [
    get('/', async (request) => {
      const resource = await resourceOf(request);
      const ordering = queryEnum(request.query, 'ordering', ['number', '-number', 'created_at', '-created_at'], 'number');
      const status = queryEnum(request.query, 'status', ['draft', 'published', 'unpublished', ''], '');
      const filter: Filter = status === '' ? { resource: resource._id } : { resource: resource._id, status };
      return listPage(request, readStore.collection('revisions'), filter, [['number', ordering.startsWith('-') ? -1 : 1]], revisionView);
    }),
    get('/:revision/', async (request) => json(200, revisionView(await revisionOf(request)))),
    get('/:revision/data/', async (request) => json(200, (await revisionOf(request)).data)),
  ];
}
