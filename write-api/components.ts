import { Router } from 'express';
import { createComponent, deleteComponent, updateComponent } from '../commands/components.js';
import type { ComponentFields } from '../domain/components/events.js';
import { COMPONENT } from '../read-api/components.js';
import { param } from '../read-api/query.js';
import { componentView } from '../read-api/views.js';
import { commandContext } from './context.js';
import type { WriteDeps } from './deps.js';
import { respondAfterWrite } from './respond.js';
import { documented, validator } from './validate.js';

const name = { type: 'string', minLength: 1, maxLength: 255 };
const description = { type: 'string', maxLength: 500 };

const createBody = validator<{ name: string; description: string }>({
  type: 'object',
  properties: { name, description: { ...description, default: '' } },
  required: ['name'],
  additionalProperties: false,
});

/** PUT: a field left out keeps its value. */
const updateBody = validator<{ name?: string; description?: string }>({
  type: 'object',
  properties: { name, description },
  additionalProperties: false,
});

// The request schemas in the API documents (/openapi.json).
documented(createBody, { method: 'POST', path: '/components/', in: 'body' });
documented(updateBody, { method: 'PUT', path: '/components/:component/', in: 'body' });

/** Components: create, update, delete. */
export function componentsWriteRouter(deps: WriteDeps): Router {
  const router = Router({ mergeParams: true });
  const read = (env: string, key: string) => async () => {
    const doc = await deps.readStore.collection('components').get(key);
    return doc && doc.env === env ? componentView(doc) : null;
  };

  router.post('/components/', async (req, res) => {
    const input = createBody(req.body);
    const ctx = commandContext(req, res);
    const created = await createComponent(deps.bus, ctx, input);
    const event = created.events[0] as { data: ComponentFields };
    await respondAfterWrite(deps, res, {
      position: created.position,
      status: 201,
      read: read(ctx.env, created.key),
      fallback: () => componentView({ _id: created.key, ...event.data, current_version: null }),
    });
  });

  router.put(COMPONENT, async (req, res) => {
    const input = updateBody(req.body);
    const ctx = commandContext(req, res);
    const key = param(req, 'component');
    const updated = await updateComponent(deps.bus, ctx, key, input);
    await respondAfterWrite(deps, res, {
      position: updated.position,
      status: 200,
      read: read(ctx.env, key),
      fallback: () => ({ key, ...input }),
    });
  });

  router.delete(COMPONENT, async (req, res) => {
    const deleted = await deleteComponent(deps.bus, commandContext(req, res), param(req, 'component'));
    await deps.projections.waitFor(deleted.position, deps.waitTimeoutMs);
    res.status(204).end();
  });

  return router;
}
