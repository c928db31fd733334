import { Router } from 'express';
import { DomainError } from '../domain/errors.js';
import type { Filter } from '../projections/ports.js';
import type { ReadDeps } from './deps.js';
import { findSchemaKey, findVersion } from './lookups.js';
import { envelope, pageParams } from './pagination.js';
import { queryEnum, queryString, param } from '../api/query.js';
import { schemaRef, versionPaths } from '../api/schema-paths.js';
import { TREE_MODES, treeFilter } from './tree.js';
import { fieldView } from '../api/views.js';

/** The field tree of a schema version: `schema/tree/` (with `path` and `mode`) and `schema/tree/field/?path=`. */
export function fieldsReadRouter({ readStore }: ReadDeps): Router {
  const router = Router({ mergeParams: true });
  const fields = readStore.collection('schema_fields');
  const versionOf = async (req: Parameters<typeof schemaRef>[0]) =>
    findVersion(readStore, await findSchemaKey(readStore, param(req, 'env'), schemaRef(req)), param(req, 'version'));

  router.get(versionPaths('/:version/schema/tree/'), async (req, res) => {
    const version = await versionOf(req);
    const page = pageParams(req.query);
    const path = queryString(req.query, 'path');
    const mode = queryEnum(req.query, 'mode', TREE_MODES, 'children');
    let filter: Filter = { version: version.key as string, parent: null };
    if (path !== undefined) {
      const field = await fields.get(`${version.key as string}:${path}`);
      if (!field) throw new DomainError('validation_error', 'No field at this path.', { path: ['not found'] });
      filter = treeFilter({ version: version.key as string }, { id: path, parent: (field.parent as string | null) ?? null, path }, mode);
    }
    const [count, docs] = await Promise.all([fields.count(filter), fields.find(filter, { sort: [['created_at', 1]], skip: page.offset, limit: page.limit })]);
    res.json(envelope(req, page, count, docs.map(fieldView)));
  });

  router.get(versionPaths('/:version/schema/tree/field/'), async (req, res) => {
    const version = await versionOf(req);
    const path = queryString(req.query, 'path');
    if (path === undefined) throw new DomainError('validation_error', 'Give the field path.', { path: ['is required'] });
    const field = await fields.get(`${version.key as string}:${path}`);
    if (!field) throw new DomainError('validation_error', 'No field at this path.', { path: ['not found'] });
    res.json(fieldView(field));
  });

  return router;
}
