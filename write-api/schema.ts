import { Router } from 'express';
import { createVersion, deleteVersion, publishVersion, updateVersion } from '../commands/schema.js';
import { param, queryString } from '../read-api/query.js';
import { schemaRef, versionPaths as paths } from '../read-api/schema-paths.js';
import { versionView } from '../read-api/views.js';
import { commandContext } from './context.js';
import type { WriteDeps } from './deps.js';
import { draftRevisions } from './draft-revisions.js';
import { respondAfterWrite } from './respond.js';
import { documented, validator } from './validate.js';

const name = { type: 'string', maxLength: 255 };
const description = { type: 'string', maxLength: 500 };

const versionBody = validator<{ name: string; description: string }>({
  type: 'object',
  properties: { name: { ...name, default: '' }, description: { ...description, default: '' } },
  additionalProperties: false,
});

/** PUT: a field left out keeps its value. */
const updateBody = validator<{ name?: string; description?: string }>({
  type: 'object',
  properties: { name, description },
  additionalProperties: false,
});

const publishBody = validator<{ check_valid_drafts: boolean }>({
  type: 'object',
  properties: { check_valid_drafts: { type: 'boolean', default: false } },
  additionalProperties: false,
});

// The request schemas in the API documents (/openapi.json).
documented(versionBody, { method: 'POST', path: '/model/versions/', in: 'body' });
documented(updateBody, { method: 'PUT', path: '/model/versions/:version/', in: 'body' });
documented(publishBody, { method: 'POST', path: '/model/versions/:version/publish/', in: 'body' });

/** Schema versions of a collection or component: create, update, delete, publish. */
export function schemaWriteRouter(deps: WriteDeps): Router {
  const router = Router({ mergeParams: true });
  const drafts = draftRevisions(deps.readStore);
  const read = (key: string) => async () => {
    const doc = await deps.readStore.collection('schema_versions').get(key);
    return doc ? versionView(doc) : null;
  };

  router.post(paths('/'), async (req, res) => {
    const input = versionBody(req.body);
    const ctx = commandContext(req, res);
    const copyFrom = queryString(req.query, 'copy_from') ?? null;
    const created = await createVersion(deps.bus, ctx, schemaRef(req), { ...input, copy_from: copyFrom });
    await respondAfterWrite(deps, res, {
      position: created.position,
      status: 201,
      read: read(created.key),
      fallback: () => ({ key: created.key, version_number: null, ...input, created_at: ctx.now, published_at: null, archived_at: null, json_schema: null }),
    });
  });

  router.put(paths('/:version/'), async (req, res) => {
    const input = updateBody(req.body);
    const version = param(req, 'version');
    const updated = await updateVersion(deps.bus, commandContext(req, res), schemaRef(req), version, input);
    await respondAfterWrite(deps, res, { position: updated.position, status: 200, read: read(version), fallback: () => ({ key: version, ...input }) });
  });

  router.delete(paths('/:version/'), async (req, res) => {
    const deleted = await deleteVersion(deps.bus, commandContext(req, res), schemaRef(req), param(req, 'version'));
    await deps.projections.waitFor(deleted.position, deps.waitTimeoutMs);
    res.status(204).end();
  });

  router.post(paths('/:version/publish/'), async (req, res) => {
    const { check_valid_drafts } = publishBody(req.body);
    const version = param(req, 'version');
    const published = await publishVersion(deps.bus, commandContext(req, res), schemaRef(req), version, { check_valid_drafts, drafts });
    await respondAfterWrite(deps, res, { position: published.position, status: 200, read: read(version), fallback: () => ({ key: version }) });
  });

  return router;
}
