import type { ApiRoute } from '../api/handler.js';
import { createVersion, deleteVersion, publishVersion, updateVersion } from '../commands/schema.js';
import { param, queryString } from '../api/query.js';
import { schemaRef, versionPaths as paths } from '../api/schema-paths.js';
import { versionView } from '../api/views.js';
import type { WriteDeps } from './deps.js';
import { draftRevisions } from './draft-revisions.js';
import { afterWrite } from './respond.js';
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
export function schemaWriteRoutes(deps: WriteDeps): ApiRoute[] {
  const routes: ApiRoute[] = [];
  const drafts = draftRevisions(deps.readStore);
  const read = (key: string) => async () => {
    const doc = await deps.readStore.collection('schema_versions').get(key);
    return doc ? versionView(doc) : null;
  };

  routes.push({ method: 'post', path: paths('/'), handler: async (request) => {
    const input = versionBody(request.body);
    const ctx = request.context;
    const copyFrom = queryString(request.query, 'copy_from') ?? null;
    const created = await createVersion(deps.bus, ctx, schemaRef(request), { ...input, copy_from: copyFrom });
    return afterWrite(deps, {
      position: created.position,
      status: 201,
      read: read(created.key),
      fallback: () => ({ key: created.key, version_number: null, ...input, created_at: ctx.now, published_at: null, archived_at: null, json_schema: null }),
    });
  } });

  routes.push({ method: 'put', path: paths('/:version/'), handler: async (request) => {
    const input = updateBody(request.body);
    const version = param(request, 'version');
    const updated = await updateVersion(deps.bus, request.context, schemaRef(request), version, input);
    return afterWrite(deps, { position: updated.position, status: 200, read: read(version), fallback: () => ({ key: version, ...input }) });
  } });

  routes.push({ method: 'delete', path: paths('/:version/'), handler: async (request) => {
    const deleted = await deleteVersion(deps.bus, request.context, schemaRef(request), param(request, 'version'));
    await deps.projections.waitFor(deleted.position, deps.waitTimeoutMs);
    return { status: 204 };
  } });

  routes.push({ method: 'post', path: paths('/:version/publish/'), handler: async (request) => {
    const { check_valid_drafts } = publishBody(request.body);
    const version = param(request, 'version');
    const published = await publishVersion(deps.bus, request.context, schemaRef(request), version, { check_valid_drafts, drafts });
    return afterWrite(deps, { position: published.position, status: 200, read: read(version), fallback: () => ({ key: version }) });
  } });

  return routes;
}
