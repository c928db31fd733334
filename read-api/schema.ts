import { Router, type Request } from 'express';
import { DomainError } from '../domain/errors.js';
import type { Filter } from '../projections/ports.js';
import type { ReadDeps } from './deps.js';
import { findCollection, findVersion } from './lookups.js';
import { envelope, pageParams } from './pagination.js';
import { queryBool, queryEnum, queryString, param } from './query.js';
import { TREE_MODES, treeFilter } from './tree.js';
import { fieldView, versionView } from './views.js';

const COLLECTION_PATHS = ['/collections/:collection/model/versions', '/folders/:collection/model/versions'];
const withSuffix = (suffix: string): string[] => COLLECTION_PATHS.map((p) => `${p}${suffix}`);

/** Schema versions of a collection and the fields of a version. */
export function schemaReadRouter({ readStore }: ReadDeps): Router {
  const router = Router({ mergeParams: true });

  const schemaOf = async (req: Request): Promise<string> => {
    const collection = await findCollection(readStore, param(req, 'env'), param(req, 'collection'));
    return collection.key as string;
  };

  router.get(withSuffix('/'), async (req, res) => {
    const schemaKey = await schemaOf(req);
    const page = pageParams(req.query);
    const include = queryBool(req.query, 'include_schema', true);
    const ordering = queryEnum(req.query, 'ordering', ['created_at', '-created_at'], 'created_at');
    const filter = { schema_key: schemaKey };
    const versions = readStore.collection('schema_versions');
    const [count, docs] = await Promise.all([
      versions.count(filter),
      versions.find(filter, { sort: [['created_at', ordering === 'created_at' ? 1 : -1]], skip: page.offset, limit: page.limit }),
    ]);
    res.json(envelope(req, page, count, docs.map((d) => versionView(d, include))));
  });

  router.get(withSuffix('/:version/'), async (req, res) => {
    const version = await findVersion(readStore, await schemaOf(req), param(req, 'version'));
    res.json(versionView(version, queryBool(req.query, 'include_schema', true)));
  });

  router.get(withSuffix('/:version/schema/tree/'), async (req, res) => {
    const version = await findVersion(readStore, await schemaOf(req), param(req, 'version'));
    const page = pageParams(req.query);
    const path = queryString(req.query, 'path');
    const mode = queryEnum(req.query, 'mode', TREE_MODES, 'children');
    const fields = readStore.collection('schema_fields');
    let filter: Filter = { version: version.key as string, parent: null };
    if (path !== undefined) {
      const field = await fields.get(`${version.key as string}:${path}`);
      if (!field) throw new DomainError('validation_error', 'No field at this path.', { path: ['not found'] });
      filter = treeFilter({ version: version.key as string }, { id: path, parent: (field.parent as string | null) ?? null, path }, mode);
    }
    const [count, docs] = await Promise.all([fields.count(filter), fields.find(filter, { sort: [['created_at', 1]], skip: page.offset, limit: page.limit })]);
    res.json(envelope(req, page, count, docs.map(fieldView)));
  });

  router.get(withSuffix('/:version/schema/tree/field/'), async (req, res) => {
    const version = await findVersion(readStore, await schemaOf(req), param(req, 'version'));
    const path = queryString(req.query, 'path');
    if (path === undefined) throw new DomainError('validation_error', 'Give the field path.', { path: ['is required'] });
    const field = await readStore.collection('schema_fields').get(`${version.key as string}:${path}`);
    if (!field) throw new DomainError('validation_error', 'No field at this path.', { path: ['not found'] });
    res.json(fieldView(field));
  });

  return router;
}
