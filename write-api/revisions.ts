import { Router, type Response } from 'express';
import { cancelSchedule, createRevision, deleteRevision, publishRevision, scheduleRevision, updateRevision, validateRevision } from '../commands/revisions.js';
import type { Position } from '../commands/ports.js';
import { param } from '../read-api/query.js';
import { revisionView } from '../read-api/views.js';
import { commandContext } from './context.js';
import type { WriteDeps } from './deps.js';
import { respondAfterWrite } from './respond.js';
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
export function revisionsWriteRouter(deps: WriteDeps): Router {
  const router = Router({ mergeParams: true });
  const answer = (res: Response, position: Position, key: string, status: number) =>
    respondAfterWrite(deps, res, {
      position,
      status,
      read: async () => {
        const doc = await deps.readStore.collection('revisions').get(key);
        return doc ? revisionView(doc) : null;
      },
      fallback: () => ({ key }),
    });

  router.post('/', async (req, res) => {
    const input = createBody(req.body);
    const created = await createRevision(deps.bus, deps.validator, commandContext(req, res), param(req, 'collection'), param(req, 'resource'), input);
    await answer(res, created.position, created.revision, 201);
  });

  // PUT replaces the data of a draft revision (docs/decisions/0114).
  router.put('/:revision/', async (req, res) => {
    const input = createBody(req.body);
    const revision = param(req, 'revision');
    const updated = await updateRevision(deps.bus, deps.validator, commandContext(req, res), param(req, 'collection'), param(req, 'resource'), revision, input);
    await answer(res, updated.position, revision, 200);
  });

  router.post('/:revision/publish/', async (req, res) => {
    const { publish_at } = publishBody(req.body);
    const revision = param(req, 'revision');
    if (publish_at !== undefined) {
      const scheduled = await scheduleRevision(deps.bus, deps.validator, commandContext(req, res), param(req, 'collection'), param(req, 'resource'), revision, publish_at);
      await answer(res, scheduled.position, revision, 202);
      return;
    }
    const published = await publishRevision(deps.bus, deps.validator, commandContext(req, res), param(req, 'collection'), param(req, 'resource'), revision);
    await answer(res, published.position, revision, 200);
  });

  router.post('/:revision/validate/', async (req, res) => {
    emptyBody(req.body);
    const checked = await validateRevision(deps.bus, deps.validator, param(req, 'env'), param(req, 'collection'), param(req, 'resource'), param(req, 'revision'));
    res.json({ errors: checked.errors });
  });

  router.delete('/:revision/schedule/', async (req, res) => {
    const cancelled = await cancelSchedule(deps.bus, commandContext(req, res), param(req, 'collection'), param(req, 'resource'), param(req, 'revision'));
    await deps.projections.waitFor(cancelled.position, deps.waitTimeoutMs);
    res.status(204).end();
  });

  router.delete('/:revision/', async (req, res) => {
    const deleted = await deleteRevision(deps.bus, commandContext(req, res), param(req, 'collection'), param(req, 'resource'), param(req, 'revision'));
    await deps.projections.waitFor(deleted.position, deps.waitTimeoutMs);
    res.status(204).end();
  });

  return router;
}
