import { Router } from 'express';
import { connectCollection, createApi, type ApiInput, type ConnectionInput } from '../commands/delivery-apis.js';
import { normalizeCorsOrigins } from '../domain/delivery-apis/cors.js';
import { ALLOWED_METHODS, DEFAULT_DESCRIPTIONS, type ApiFields, type ConnectionFields } from '../domain/delivery-apis/events.js';
import { connectionId } from '../projections/delivery-apis.js';
import { param } from '../read-api/query.js';
import { apiView, connectionView } from '../read-api/views.js';
import { commandContext } from './context.js';
import type { WriteDeps } from './deps.js';
import { respondAfterWrite } from './respond.js';
import { validator } from './validate.js';

const apiBody = validator<ApiInput>({
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 255 },
    prefix: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[a-z0-9_-]+$' },
    description: { type: 'string', maxLength: 500, default: '' },
    version: { type: 'string', enum: ['1'], default: '1' },
    is_auth_required: { type: 'boolean', default: false },
    mcp_enabled: { type: 'boolean', default: true },
    router_introspection_enabled: { type: 'boolean', default: true },
    cors_origins: { type: 'array', items: { type: 'string' }, default: [] },
  },
  required: ['name', 'prefix'],
  additionalProperties: false,
});

const description = { type: 'string', maxLength: 100 };
const connectionBody = validator<ConnectionInput>({
  type: 'object',
  properties: {
    folder: { type: 'string', minLength: 1 },
    allowed_methods: { type: 'array', items: { type: 'string', enum: [...ALLOWED_METHODS] }, uniqueItems: true, default: [] },
    description_get_one: { ...description, default: DEFAULT_DESCRIPTIONS.description_get_one },
    description_get_many: { ...description, default: DEFAULT_DESCRIPTIONS.description_get_many },
    description_search: { ...description, default: DEFAULT_DESCRIPTIONS.description_search },
    description_schema: { ...description, default: DEFAULT_DESCRIPTIONS.description_schema },
    mcp_truncate_text: { type: ['integer', 'null'], minimum: 1, default: 1000 },
  },
  required: ['folder'],
  additionalProperties: false,
});

/** Creates delivery APIs and connects collections to them. */
export function deliveryApisWriteRouter(deps: WriteDeps): Router {
  const router = Router({ mergeParams: true });

  router.post('/api/', async (req, res) => {
    const input = apiBody(req.body);
    const ctx = commandContext(req, res);
    const created = await createApi(deps.bus, ctx, { ...input, cors_origins: normalizeCorsOrigins(input.cors_origins) });
    const event = created.events[0] as { data: ApiFields };
    await respondAfterWrite(deps, res, {
      position: created.position,
      status: 201,
      read: async () => {
        const doc = await deps.readStore.collection('apis').get(created.key);
        return doc ? apiView(doc) : null;
      },
      fallback: () => apiView({ _id: created.key, ...event.data }),
    });
  });

  router.post(['/api/:api/collections/', '/api/:api/folders/'], async (req, res) => {
    const input = connectionBody(req.body);
    const ctx = commandContext(req, res);
    const api = param(req, 'api');
    const connected = await connectCollection(deps.bus, ctx, api, input);
    const event = connected.events[0] as { data: ConnectionFields };
    await respondAfterWrite(deps, res, {
      position: connected.position,
      status: 201,
      read: async () => {
        const doc = await deps.readStore.collection('api_connections').get(connectionId(api, input.folder));
        return doc ? connectionView(doc) : null;
      },
      fallback: () => connectionView({ _id: connectionId(api, input.folder), ...event.data, unscoped_levels: [], unscoped_ancestors: [] }),
    });
  });

  return router;
}
