import { get, json, type ApiRequest, type ApiRoute } from '../api/handler.js';
import { DomainError } from '../domain/errors.js';
import type { Doc, Filter } from '../projections/ports.js';
import type { ReadDeps } from './deps.js';
import { findSchemaKey, findVersion } from './lookups.js';
import { listPage } from './pagination.js';
import { queryEnum, queryString, param } from '../api/query.js';
import { schemaRef, versionPaths } from '../api/schema-paths.js';
import { TREE_MODES, treeFilter } from './tree.js';
import { fieldView } from '../api/views.js';

/** The field tree of a schema version: `schema/tree/` (with `path` and `mode`) and `schema/tree/field/?path=`. */
export function fieldsReadRoutes({ readStore }: ReadDeps): ApiRoute[] {
  const fields = readStore.collection('schema_fields');
  const versionOf = async (request: ApiRequest) =>
    findVersion(readStore, await findSchemaKey(readStore, param(request, 'env'), schemaRef(request)), param(request, 'version'));
  const fieldAt = async (version: Doc, path: string) => {
    const field = await fields.get(`${version.key as string}:${path}`);
    if (!field) throw new DomainError('validation_error', 'No field at this path.', { path: ['not found'] });
    return field;
  };

  return [
    get(versionPaths('/:version/schema/tree/'), async (request) => {
      const version = await versionOf(request);
      const path = queryString(request.query, 'path');
      const mode = queryEnum(request.query, 'mode', TREE_MODES, 'children');
      let filter: Filter = { version: version.key as string, parent: null };
      if (path !== undefined) {
        const field = await fieldAt(version, path);
        filter = treeFilter({ version: version.key as string }, { id: path, parent: (field.parent as string | null) ?? null, path }, mode);
      }
      return listPage(request, fields, filter, [['created_at', 1]], fieldView);
    }),
    get(versionPaths('/:version/schema/tree/field/'), async (request) => {
      const version = await versionOf(request);
      const path = queryString(request.query, 'path');
      if (path === undefined) throw new DomainError('validation_error', 'Give the field path.', { path: ['is required'] });
      return json(200, fieldView(await fieldAt(version, path)));
    }),
  ];
}
