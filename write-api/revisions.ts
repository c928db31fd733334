import { json, type ApiRoute } from '../api/handler.js';
import { cancelSchedule, createRevision, deleteRevision, publishRevision, scheduleRevision, updateRevision, validateRevision } from '../commands/revisions.js';
import type { Position } from '../commands/ports.js';
import { param } from '../api/query.js';
import { revisionView } from '../api/views.js';
import type { WriteDeps } from './deps.js';
import { afterWrite } from './respond.js';
import { documented, validator } from './validate.js';


const createBody = validator<{ data: Record<string, unknown>; validate_data: boolean }>({
  type: 'object',
  properties: { data: { type: 'object' }, validate_data: { type: 'boolean', default: true } },
  required: ['data'],
  additionalProperties: false,
});
/** Validate takes no fields (an empty or missing body). */
const emptyBody = validator<Record<string, never>>({ type: 'object', additionalProperties: false });
/** Publish: now (no fields), or at `publish_at`, a future date-time (docs/decisions/0357). */
const publishBody = validator<{ publish_at?: string }>({
  type: 'object',
  properties: { publish_at: { type: 'string', format: 'date-time' } },
  additionalProperties: false,
});

// The request schemas in the API documents (/openapi.json).
documented(createBody, { method: 'POST', path: '/revisions/', in: 'body' }, { method: 'PUT', path: '/revisions/:revision/', in: 'body' });
documented(publishBody, { method: 'POST', path: '/revisions/:revision/publish/', in: 'body' });
documented(emptyBody, { method: 'POST', path: '/revisions/:revision/validate/', in: 'body' });

/** Revision writes: create a draft, replace a draft's data, publish, validate against the current schema, delete. */
export function revisionsWriteRoutes(deps: WriteDeps): ApiRoute[] {
  const routes: ApiRoute[] = [];
  const answer = (position: Position, key: string, status: number) =>
    afterWrite(deps, {
      position,
      status,
      read: async () => {
        const doc = await deps.readStore.collection('revisions').get(key);
        return doc ? revisionView(doc) : null;
      },
      fallback: () => ({ key }),
    });

  routes.push({ method: 'post', path: '/', handler: async (request) => {
    const input = createBody(request.body);
    const created = await createRevision(deps.bus, deps.validator, request.context, param(request, 'collection'), param(request, 'resource'), input);
    return answer(created.position, created.revision, 201);
  } });

  // PUT replaces the data of a draft revision (docs/decisions/0114).
  routes.push({ method: 'put', path: '/:revision/', handler: async (request) => {
    const input = createBody(request.body);
    const revision = param(request, 'revision');
    const updated = await updateRevision(deps.bus, deps.validator, request.context, param(request, 'collection'), param(request, 'resource'), revision, input);
    return answer(updated.position, revision, 200);
  } });

  routes.push({ method: 'post', path: '/:revision/publish/', handler: async (request) => {
    const { publish_at } = publishBody(request.body);
    const revision = param(request, 'revision');
    if (publish_at !== undefined) {
      const scheduled = await scheduleRevision(deps.bus, deps.validator, request.context, param(request, 'collection'), param(request, 'resource'), revision, publish_at);
      return answer(scheduled.position, revision, 202);
    }
    const published = await publishRevision(deps.bus, deps.validator, request.context, param(request, 'collection'), param(request, 'resource'), revision);
    return answer(published.position, revision, 200);
  } });

  routes.push({ method: 'post', path: '/:revision/validate/', handler: async (request) => {
    emptyBody(request.body);
    const checked = await validateRevision(deps.bus, deps.validator, param(request, 'env'), param(request, 'collection'), param(request, 'resource'), param(request, 'revision'));
    return json(200, { errors: checked.errors });
  } });

  routes.push({ method: 'delete', path: '/:revision/schedule/', handler: async (request) => {
    const cancelled = await cancelSchedule(deps.bus, request.context, param(request, 'collection'), param(request, 'resource'), param(request, 'revision'));
    await deps.projections.waitFor(cancelled.position, deps.waitTimeoutMs);
    return { status: 204 };
  } });

  routes.push({ method: 'delete', path: '/:revision/', handler: async (request) => {
    const deleted = await deleteRevision(deps.bus, request.context, param(request, 'collection'), param(request, 'resource'), param(request, 'revision'));
    await deps.projections.waitFor(deleted.position, deps.waitTimeoutMs);
    return { status: 204 };
  } });

  return routes;
}
