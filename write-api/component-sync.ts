import { json, type ApiRoute } from '../api/handler.js';
import { syncComponents } from '../commands/component-sync.js';
import { DomainError } from '../domain/errors.js';
import { param } from '../api/query.js';
import type { WriteDeps } from './deps.js';
import { draftRevisions } from './draft-revisions.js';
import { documented, validator } from './validate.js';

const syncBody = validator<{ field_paths?: string[]; to_versions?: Record<string, string> }>({
  type: 'object',
  properties: {
    field_paths: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
    to_versions: { type: 'object', additionalProperties: { type: 'string', minLength: 1 } },
  },
  additionalProperties: false,
});

// The request schemas in the API documents (/openapi.json).
documented(syncBody, { method: 'POST', path: '/sync_component/', in: 'body' });

/** `POST .../collections/:collection/sync_component/`: nested fields follow newer component versions (docs/decisions/0115). */
export function componentSyncWriteRoutes(deps: WriteDeps): ApiRoute[] {
  const routes: ApiRoute[] = [];
  routes.push({ method: 'post', path: ['/collections/:collection/sync_component/', '/folders/:collection/sync_component/'], handler: async (request) => {
    const input = syncBody(request.body);
    const stray = Object.keys(input.to_versions ?? {}).filter((path) => input.field_paths !== undefined && !input.field_paths.includes(path));
    if (stray.length > 0) {
      throw new DomainError('validation_error', 'Every path of to_versions must be in field_paths when both are given.', { to_versions: stray.map((p) => `${p} is not in field_paths`) });
    }
    const result = await syncComponents(deps.bus, request.context, param(request, 'collection'), input, draftRevisions(deps.readStore));
    if (result.position) await deps.projections.waitFor(result.position, deps.waitTimeoutMs);
    return json(200, { synced_paths: result.synced_paths, skipped: result.skipped, schema_version: result.schema_version });
  } });
  return routes;
}
