import { get, json, type ApiRequest, type ApiRoute } from '../api/handler.js';
import type { ReadDeps } from './deps.js';
import { findSchemaKey, findVersion } from './lookups.js';
import { listPage } from './pagination.js';
import { queryBool, queryEnum, param } from '../api/query.js';
import { schemaRef, versionPaths } from '../api/schema-paths.js';
import { versionView } from '../api/views.js';

/** Schema versions of a collection or component. */
export function schemaReadRoutes({ readStore }: ReadDeps): ApiRoute[] {
  const schemaOf = (request: ApiRequest): Promise<string> => findSchemaKey(readStore, param(request, 'env'), schemaRef(request));
  const included = (request: ApiRequest) => queryBool(request.query, 'include_schema', true);
  return [
    get(versionPaths('/'), async (request) => {
      const schemaKey = await schemaOf(request);
      const include = included(request);
      const ordering = queryEnum(request.query, 'ordering', ['created_at', '-created_at'], 'created_at');
      const sort = [['created_at', ordering === 'created_at' ? 1 : -1]] as const;
      return listPage(request, readStore.collection('schema_versions'), { schema_key: schemaKey }, sort, (doc) => versionView(doc, include));
    }),
    get(versionPaths('/:version/'), async (request) => json(200, versionView(await findVersion(readStore, await schemaOf(request), param(request, 'version')), included(request)))),
  ];
}
