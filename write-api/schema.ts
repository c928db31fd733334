import { Router } from 'express';
import { createVersion, publishVersion } from '../commands/schema.js';
import { param, queryString } from '../read-api/query.js';
import { schemaRef, versionPaths as paths } from '../read-api/schema-paths.js';
import { versionView } from '../read-api/views.js';
import { commandContext } from './context.js';
import type { WriteDeps } from './deps.js';
import { respondAfterWrite } from './respond.js';
import { validator } from './validate.js';

const versionBody = validator<{ name: string; description: string }>({
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 255, default: '' },
    description: { type: 'string', maxLength: 500, default: '' },
  },
  additionalProperties: false,
});

const publishBody = validator<{ check_valid_drafts: boolean }>({
  type: 'object',
  properties: { check_valid_drafts: { type: 'boolean', default: false } },
  additionalProperties: false,
});

/** Schema versions of a collection or component: create, publish. */
export function schemaWriteRouter(deps: WriteDeps): Router {
  const router = Router({ mergeParams: true });
  const versionDoc = async (key: string) => deps.readStore.collection('schema_versions').get(key);

  router.post(paths('/'), async (req, res) => {
    const input = versionBody(req.body);
    const ctx = commandContext(req, res);
    const copyFrom = queryString(req.query, 'copy_from') ?? null;
    const created = await createVersion(deps.bus, ctx, schemaRef(req), { ...input, copy_from: copyFrom });
    await respondAfterWrite(deps, res, {
      position: created.position,
      status: 201,
      read: async () => {
        const doc = await versionDoc(created.key);
        return doc ? versionView(doc) : null;
      },
      fallback: () => ({ key: created.key, version_number: null, ...input, created_at: ctx.now, published_at: null, archived_at: null, json_schema: null }),
    });
  });

  router.post(paths('/:version/publish/'), async (req, res) => {
    publishBody(req.body);
    const ctx = commandContext(req, res);
    const version = param(req, 'version');
    const published = await publishVersion(deps.bus, ctx, schemaRef(req), version);
    await respondAfterWrite(deps, res, {
      position: published.position,
      status: 200,
      read: async () => {
        const doc = await versionDoc(version);
        return doc ? versionView(doc) : null;
      },
      fallback: () => ({ key: version }),
    });
  });

  return router;
}
