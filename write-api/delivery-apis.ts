import type { ApiRequest, ApiRoute } from '../api/handler.js';
import {
  connectCollection,
  createApi,
  deleteApi,
  disconnectCollection,
  updateApi,
  updateConnection,
  type ApiInput,
  type ConnectionChanges,
  type ConnectionInput,
} from '../commands/delivery-apis.js';
import { DomainError } from '../domain/errors.js';
import { own } from '../domain/records.js';
import { normalizeCorsOrigins } from '../domain/delivery-apis/cors.js';
import { ALLOWED_METHODS, DEFAULT_DESCRIPTIONS, type ApiFields, type ConnectionFields } from '../domain/delivery-apis/events.js';
import { connectionId } from '../projections/delivery-apis.js';
import { param } from '../api/query.js';
import { apiView } from '../api/views.js';
import { connectionDetails } from '../api/connection-details.js';
import type { WriteDeps } from './deps.js';
import { afterWrite } from './respond.js';
import { documented, validator } from './validate.js';

const apiProperties = {
  name: { type: 'string', minLength: 1, maxLength: 255 },
  prefix: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[a-z0-9_-]+$' },
  description: { type: 'string', maxLength: 500 },
  version: { type: 'string', enum: ['1'] },
  is_auth_required: { type: 'boolean' },
  mcp_enabled: { type: 'boolean' },
  router_introspection_enabled: { type: 'boolean' },
  cors_origins: { type: 'array', items: { type: 'string' } },
};
const withDefaults = {
  ...apiProperties,
  description: { ...apiProperties.description, default: '' },
  version: { ...apiProperties.version, default: '1' },
  is_auth_required: { ...apiProperties.is_auth_required, default: false },
  mcp_enabled: { ...apiProperties.mcp_enabled, default: true },
  router_introspection_enabled: { ...apiProperties.router_introspection_enabled, default: true },
  cors_origins: { ...apiProperties.cors_origins, default: [] },
};
const createBody = validator<ApiInput>({ type: 'object', properties: withDefaults, required: ['name', 'prefix'], additionalProperties: false });
/** PUT: name and prefix as on create; optional fields left out keep their values. */
const updateBody = validator<Partial<ApiInput>>({ type: 'object', properties: apiProperties, required: ['name', 'prefix'], additionalProperties: false });
/** PATCH: exactly one of the two flags. */
const patchBody = validator<Partial<ApiInput>>({
  type: 'object',
  properties: { mcp_enabled: { type: 'boolean' }, router_introspection_enabled: { type: 'boolean' } },
  minProperties: 1,
  maxProperties: 1,
  additionalProperties: false,
});

const description = { type: 'string', maxLength: 100 };
const connectionProperties = {
  allowed_methods: { type: 'array', items: { type: 'string', enum: [...ALLOWED_METHODS] }, uniqueItems: true },
  description_get_one: description,
  description_get_many: description,
  description_search: description,
  description_schema: description,
  mcp_truncate_text: { type: ['integer', 'null'], minimum: 1 },
  unscoped_levels: { type: 'array', items: { type: 'integer', minimum: 0 }, uniqueItems: true },
  unscoped_ancestors: { type: 'array', items: { type: 'string' } },
};
const connectBody = validator<ConnectionInput>({
  type: 'object',
  properties: {
    folder: { type: 'string', minLength: 1 },
    ...connectionProperties,
    allowed_methods: { ...connectionProperties.allowed_methods, default: [] },
    description_get_one: { ...description, default: DEFAULT_DESCRIPTIONS.description_get_one },
    description_get_many: { ...description, default: DEFAULT_DESCRIPTIONS.description_get_many },
    description_search: { ...description, default: DEFAULT_DESCRIPTIONS.description_search },
    description_schema: { ...description, default: DEFAULT_DESCRIPTIONS.description_schema },
    mcp_truncate_text: { ...connectionProperties.mcp_truncate_text, default: 1000 },
    unscoped_levels: { ...connectionProperties.unscoped_levels, default: [] },
    unscoped_ancestors: { ...connectionProperties.unscoped_ancestors, default: [] },
  },
  required: ['folder'],
  additionalProperties: false,
});
/** PUT: `allowed_methods` defaults to []; other fields left out keep their values. */
const updateConnectionBody = validator<ConnectionChanges>({
  type: 'object',
  properties: { ...connectionProperties, allowed_methods: { ...connectionProperties.allowed_methods, default: [] } },
  additionalProperties: false,
});

const API = '/api/:api/';
const CONNECTIONS = ['/api/:api/collections/', '/api/:api/folders/'];
const CONNECTION = ['/api/:api/collections/:collection/', '/api/:api/folders/:collection/'];

// The request schemas in the API documents (/openapi.json).
documented(createBody, { method: 'POST', path: '/api/', in: 'body' });
documented(updateBody, { method: 'PUT', path: '/api/:api/', in: 'body' });
documented(patchBody, { method: 'PATCH', path: '/api/:api/', in: 'body' });
documented(connectBody, { method: 'POST', path: '/api/:api/collections/', in: 'body' }, { method: 'POST', path: '/api/:api/folders/', in: 'body' });
documented(updateConnectionBody, { method: 'PUT', path: '/api/:api/collections/:collection/', in: 'body' }, { method: 'PUT', path: '/api/:api/folders/:collection/', in: 'body' });

/** Delivery APIs (create, update, patch, delete) and their collection connections. */
export function deliveryApisWriteRoutes(deps: WriteDeps): ApiRoute[] {
  const routes: ApiRoute[] = [];
  const apiDoc = async (key: string) => {
    const doc = await deps.readStore.collection('apis').get(key);
    return doc ? apiView(doc) : null;
  };
  const connectionDoc = async (env: string, api: string, folder: string) => {
    const doc = await deps.readStore.collection('api_connections').get(connectionId(api, folder));
    return doc ? connectionDetails(deps, env, doc) : null;
  };
  const apiAnswer = async (written: { position: string; state: unknown }, key: string, status: number) => {
    const state = written.state as { apis: Record<string, ApiFields> };
    const fields = own(state.apis, key);
    return afterWrite(deps, { position: written.position, status, read: () => apiDoc(key), fallback: () => (fields ? apiView({ _id: key, ...fields }) : { key }) });
  };
  const connectionAnswer = async (request: ApiRequest, written: { position: string; state: unknown }, folder: string, status: number) => {
    const api = param(request, 'api');
    const env = param(request, 'env');
    const state = written.state as { apis: Record<string, { connections: Record<string, ConnectionFields> }> };
    const target = own(state.apis, api);
    const fields = target ? own(target.connections, folder) : undefined;
    return afterWrite(deps, {
      position: written.position,
      status,
      read: () => connectionDoc(env, api, folder),
      fallback: () => (fields ? connectionDetails(deps, env, { _id: connectionId(api, folder), ...fields }) : { folder, api }),
    });
  };

  routes.push({ method: 'post', path: '/api/', handler: async (request) => {
    const input = createBody(request.body);
    const created = await createApi(deps.bus, request.context, { ...input, cors_origins: normalizeCorsOrigins(input.cors_origins) });
    return apiAnswer(created, created.key, 201);
  } });

  routes.push({ method: 'put', path: API, handler: async (request) => {
    const input = updateBody(request.body);
    const changes = input.cors_origins === undefined ? input : { ...input, cors_origins: normalizeCorsOrigins(input.cors_origins) };
    return apiAnswer(await updateApi(deps.bus, request.context, param(request, 'api'), changes), param(request, 'api'), 200);
  } });

  routes.push({ method: 'patch', path: API, handler: async (request) => {
    const input = patchBody(request.body);
    return apiAnswer(await updateApi(deps.bus, request.context, param(request, 'api'), input), param(request, 'api'), 200);
  } });

  routes.push({ method: 'delete', path: API, handler: async (request) => {
    const deleted = await deleteApi(deps.bus, request.context, param(request, 'api'));
    await deps.projections.waitFor(deleted.position, deps.waitTimeoutMs);
    return { status: 204 };
  } });

  routes.push({ method: 'post', path: CONNECTIONS, handler: async (request) => {
    const input = connectBody(request.body);
    const connected = await connectCollection(deps.bus, request.context, param(request, 'api'), input);
    return connectionAnswer(request, connected, input.folder, 201);
  } });

  routes.push({ method: 'put', path: CONNECTION, handler: async (request) => {
    const input = updateConnectionBody(request.body);
    if ((input.unscoped_levels === undefined) !== (input.unscoped_ancestors === undefined)) {
      throw new DomainError('validation_error', 'unscoped_levels and unscoped_ancestors are sent together.', { unscoped_levels: ['send with unscoped_ancestors'] });
    }
    const folder = param(request, 'collection');
    const updated = await updateConnection(deps.bus, request.context, param(request, 'api'), folder, input);
    return connectionAnswer(request, updated, folder, 200);
  } });

  routes.push({ method: 'delete', path: CONNECTION, handler: async (request) => {
    const done = await disconnectCollection(deps.bus, request.context, param(request, 'api'), param(request, 'collection'));
    await deps.projections.waitFor(done.position, deps.waitTimeoutMs);
    return { status: 204 };
  } });

  return routes;
}
