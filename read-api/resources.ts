import { get, json, type ApiRequest, type ApiRoute } from '../api/handler.js';
import type { Doc, Filter } from '../projections/ports.js';
import type { ReadDeps } from './deps.js';
import { createdAtFilters } from './components.js';
import { findCollection, findResource } from './lookups.js';
import { listPage, MAX_LIMIT, pageParams } from './pagination.js';
import { queryEnum, queryString, param } from '../api/query.js';
import { withVectorsSize } from '../api/vectors-size.js';
import { resourceView } from '../api/views.js';
import { asOfQuery } from './audit/as-of.js';
import { dataAsOf, listAsOf, resourceAsOf, type TimeTravelDeps } from './audit/time-travel.js';

/** The list filters of the specification's Resources section. */
function listFilter(request: ApiRequest, folder: string): Filter {
  const q = request.query;
  const and: Filter[] = [{ folder }];
  const status = queryEnum(q, 'status', ['published', 'draft', ''], '');
  if (status === 'published') and.push({ current_revision: { $ne: null } });
  if (status === 'draft') and.push({ current_revision: null });
  and.push(...createdAtFilters(q));
  for (const name of ['content_type', 'resource_owner', 'external_id']) {
    const value = queryString(q, name);
    if (value !== undefined) and.push({ [name]: value });
  }
  const keys = queryString(q, 'key__in');
  if (keys !== undefined) and.push({ key: { $in: keys.split(',').filter(Boolean).slice(0, Math.min(pageParams(q).limit, MAX_LIMIT)) } });
  return { $and: and };
}

/**
 * Resources of a collection (management view) and their published data; with `as_of`, as they
 * were at that point (read-api/audit/time-travel.ts).
 */
export function resourcesReadRoutes(deps: ReadDeps & TimeTravelDeps): ApiRoute[] {
  const { readStore, searchIndex } = deps;
  const resourceOf = async (request: ApiRequest) => {
    const collection = await findCollection(readStore, param(request, 'env'), param(request, 'collection'));
    return findResource(readStore, collection.key as string, param(request, 'resource'));
  };

  return [
    get('/', async (request) => {
      const asOf = asOfQuery(request.query, false);
      if (asOf !== null) return listAsOf(deps, request, asOf);
      const collection = await findCollection(readStore, param(request, 'env'), param(request, 'collection'));
      const ordering = queryEnum(request.query, 'ordering', ['created_at', '-created_at'], 'created_at');
      const filter = listFilter(request, collection.key as string);
      const env = param(request, 'env');
      const view = (doc: Doc) => withVectorsSize(searchIndex, env, resourceView(doc));
      return listPage(request, readStore.collection('resources'), filter, [['created_at', ordering === 'created_at' ? 1 : -1]], view);
    }),
    get('/:resource/', async (request) => {
      const asOf = asOfQuery(request.query, true);
      if (asOf !== null) return resourceAsOf(deps, request, asOf);
      const doc = await resourceOf(request);
      const headers = typeof doc.current_revision === 'string' ? { ETag: `"${doc.current_revision}"` } : undefined;
      return { status: 200, headers, body: await withVectorsSize(searchIndex, param(request, 'env'), resourceView(doc)) };
    }),
    get('/:resource/data/', async (request) => {
      const asOf = asOfQuery(request.query, true);
      if (asOf !== null) return dataAsOf(deps, request, asOf);
      const current = (await resourceOf(request)).current_revision as string | null;
      if (current === null) return { status: 204 };
      const revision = await readStore.collection('revisions').get(current);
      return revision ? json(200, revision.data) : json(202, { message: 'The revision is still being processed.' });
    }),
  ];
}
