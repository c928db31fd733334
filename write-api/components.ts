import type { ApiRoute } from '../api/handler.js';
import { createComponent, deleteComponent, updateComponent } from '../commands/components.js';
import type { ComponentFields } from '../domain/components/events.js';
import { COMPONENT } from '../api/component-path.js';
import { param } from '../api/query.js';
import { componentView } from '../api/views.js';
import type { WriteDeps } from './deps.js';
import { afterWrite } from './respond.js';
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
export function componentsWriteRoutes(deps: WriteDeps): ApiRoute[] {
  const routes: ApiRoute[] = [];
  const read = (env: string, key: string) => async () => {
    const doc = await deps.readStore.collection('components').get(key);
    return doc && doc.env === env ? componentView(doc) : null;
  };

  routes.push({ method: 'post', path: '/components/', handler: async (request) => {
    const input = createBody(request.body);
    const ctx = request.context;
    const created = await createComponent(deps.bus, ctx, input);
    const event = created.events[0] as { data: ComponentFields };
    return afterWrite(deps, {
      position: created.position,
      status: 201,
      read: read(ctx.env, created.key),
      fallback: () => componentView({ _id: created.key, ...event.data, current_version: null }),
    });
  } });

  routes.push({ method: 'put', path: COMPONENT, handler: async (request) => {
    const input = updateBody(request.body);
    const ctx = request.context;
    const key = param(request, 'component');
    const updated = await updateComponent(deps.bus, ctx, key, input);
    return afterWrite(deps, {
      position: updated.position,
      status: 200,
      read: read(ctx.env, key),
      fallback: () => ({ key, ...input }),
    });
  } });

  routes.push({ method: 'delete', path: COMPONENT, handler: async (request) => {
    const deleted = await deleteComponent(deps.bus, request.context, param(request, 'component'));
    await deps.projections.waitFor(deleted.position, deps.waitTimeoutMs);
    return { status: 204 };
  } });

  return routes;
}
