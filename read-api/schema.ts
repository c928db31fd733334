import { Router, type Request } from 'express';
import type { ReadDeps } from './deps.js';
import { findSchemaKey, findVersion } from './lookups.js';
import { envelope, pageParams } from './pagination.js';
import { queryBool, queryEnum, param } from '../api/query.js';
import { schemaRef, versionPaths } from '../api/schema-paths.js';
import { versionView } from '../api/views.js';

/** Schema versions of a collection or component. */
export function schemaReadRouter({ readStore }: ReadDeps): Router {
  const router = Router({ mergeParams: true });
  const schemaOf = (req: Request): Promise<string> => findSchemaKey(readStore, param(req, 'env'), schemaRef(req));

  router.get(versionPaths('/'), async (req, res) => {
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

  router.get(versionPaths('/:version/'), async (req, res) => {
    const version = await findVersion(readStore, await schemaOf(req), param(req, 'version'));
    res.json(versionView(version, queryBool(req.query, 'include_schema', true)));
  });

  return router;
}
