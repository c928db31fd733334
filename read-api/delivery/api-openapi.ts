import { notFound } from '../../domain/errors.js';
import { SYS_FIELDS } from '../../projections/delivery-query.js';
import type { DeliveryAsk, ReadAnswer } from '../../api/delivery-ask.js';
import { readAnswer } from './caching.js';
import type { EnvModel } from './models.js';
import { LIST_PARAMS, LOCALE_PARAMS, template, type Param } from './router-introspection.js';
import type { DeliveryApi, DeliveryRoute } from './routing.js';
import { SEARCH_BODY } from './search/body-schema.js';

type Json = Record<string, unknown>;

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json): Json => ({ 'application/json': { schema } });
const SEARCH_QUERY = new Set(['limit', 'next', 'previous', 'search_locale', 'truncate_text', 'return_locales', 'fallback_locales', 'populate']);

/** A component name from a collection alias path (`articles/news` → `articles.news`). */
const nameOf = (route: DeliveryRoute): string => route.steps.map((s) => s.alias).join('.').replace(/[^A-Za-z0-9._-]/g, '_');

/**
 * A collection's published JSON Schema as components: its `$defs` become components of their
 * own and every `#/$defs/X` reference points there, so the schema reads the same inside the
 * document as alone.
 */
function embed(schema: Json | null, name: string, components: Record<string, Json>): void {
  if (schema === null) {
    components[name] = { type: 'object', description: 'The collection has no published schema yet.' };
    return;
  }
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== 'object') return value;
    const out: Json = {};
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$schema' || key === '$id' || key === '$defs') continue;
      out[key] = key === '$ref' && typeof inner === 'string' ? inner.replace(/^#\/\$defs\//, `#/components/schemas/${name}__`) : rewrite(inner);
    }
    return out;
  };
  for (const [def, body] of Object.entries((schema.$defs as Json | undefined) ?? {})) components[`${name}__${def}`] = rewrite(body) as Json;
  components[name] = rewrite(schema) as Json;
}

const parameter = (q: Param): Json => ({
  name: q.name,
  in: 'query',
  required: q.required,
  description: q.description,
  schema: { type: q.type === 'boolean' ? 'string' : q.type, ...(q.type === 'boolean' ? { enum: ['true', 'false'] } : {}) },
});

const pathParams = (route: DeliveryRoute, item: boolean): Json[] => [
  ...route.steps.filter((s) => s.keyed).map((s) => ({ name: `${s.alias}_key`, in: 'path', required: true, schema: { type: 'string' }, description: `The key of the ${s.alias} resource.` })),
  ...(item ? [{ name: 'key', in: 'path', required: true, schema: { type: 'string' }, description: 'The resource key.' }] : []),
];

const errors = (auth: boolean): Json => ({
  ...(auth ? { '401': { description: '`error_code`: `authentication_required` (with `WWW-Authenticate`).', content: json(ref('Error')) } } : {}),
  '403': { description: '`error_code`: `access_denied`, `permission_denied` (the connection does not allow the method).', content: json(ref('Error')) },
  '404': { description: '`error_code`: `collection_not_found`, `resource_not_found`, `route_not_found`.', content: json(ref('Error')) },
  '422': { description: '`error_code`: `validation_error` naming each refused parameter or field.', content: json(ref('Error')) },
});

function operations(route: DeliveryRoute, auth: boolean, components: Record<string, Json>): Record<string, Json> {
  const name = nameOf(route);
  const item = `${name}.item`;
  const page = `${name}.page`;
  components[item] = { type: 'object', required: ['_sys'], properties: { _sys: ref('Sys'), ...(route.allowed_methods.includes('get_one') ? { data: ref(name) } : {}) } };
  components[page] = { type: 'object', required: ['limit', 'next', 'previous', 'results'], properties: { limit: { type: 'integer' }, next: { type: ['string', 'null'] }, previous: { type: ['string', 'null'] }, results: { type: 'array', items: ref(item) } } };
  const base = template(route);
  const op = (summary: string, description: string, extra: Json) => ({ summary, description: description || summary, tags: [route.name || name], ...extra, responses: { ...(extra.responses as Json), ...errors(auth) } });
  const paths: Record<string, Json> = {};
  const at = (path: string): Json => (paths[path] ??= {});
  if (route.allowed_methods.includes('get_many')) {
    at(base).get = op(`List ${route.name || name}`, route.descriptions.get_many, { operationId: `list_${name}`, parameters: [...pathParams(route, false), ...LIST_PARAMS.map(parameter)], responses: { '200': { description: 'A cursor page.', content: json(ref(page)) } } });
    at(`${base}_search`).post = op(`Search ${route.name || name}`, route.descriptions.search, {
      operationId: `search_${name}`,
      parameters: [...pathParams(route, false), ...LIST_PARAMS.filter((q) => SEARCH_QUERY.has(q.name)).map(parameter)],
      requestBody: { required: false, content: json(SEARCH_BODY as unknown as Json) },
      responses: { '200': { description: 'A ranked page.', content: json({ allOf: [ref(page), { type: 'object', properties: { metadata: { type: 'object' } } }] }) } },
    });
  }
  if (route.allowed_methods.includes('get_one')) {
    at(`${base}{key}/`).get = op(`Get one of ${route.name || name}`, route.descriptions.get_one, { operationId: `get_${name}`, parameters: [...pathParams(route, true), ...LOCALE_PARAMS.map(parameter)], responses: { '200': { description: 'One resource.', content: json(ref(item)) } } });
  }
  const written = { type: 'object', required: ['resource_key', 'revision_key', 'published'], properties: { resource_key: { type: 'string' }, revision_key: { type: ['string', 'null'] }, write_units: { type: 'number' }, published: { type: 'boolean' } } };
  if (route.allowed_methods.includes('create')) {
    at(base).post = op(`Create in ${route.name || name}`, 'Creates and publishes a resource.', {
      operationId: `create_${name}`,
      parameters: pathParams(route, false),
      requestBody: { required: true, content: json({ type: 'object', required: ['data'], additionalProperties: false, properties: { data: ref(name), key: { type: 'string' } } }) },
      responses: { '201': { description: 'Created and published.', content: json(written) } },
    });
  }
  if (route.allowed_methods.includes('update')) {
    at(`${base}{key}/`).put = op(`Replace in ${route.name || name}`, 'Replaces the data of a resource with a new published revision.', {
      operationId: `update_${name}`,
      parameters: pathParams(route, true),
      requestBody: { required: true, content: json({ type: 'object', required: ['data'], additionalProperties: false, properties: { data: ref(name) } }) },
      responses: { '200': { description: 'Replaced and published.', content: json(written) } },
    });
  }
  at(`${base}_schema`).get = op(`The schema of ${route.name || name}`, route.descriptions.schema, { operationId: `schema_${name}`, parameters: pathParams(route, false), responses: { '200': { description: 'The published JSON Schema and the searchable fields.', content: json({ type: 'object' }) } } });
  return paths;
}

/** The OpenAPI 3.1 document of one delivery API as its connections make it, for the collections this reader may read. */
export function apiDocument(api: DeliveryApi, model: EnvModel, server: string, readable: (folder: string) => boolean): Json {
  const components: Record<string, Json> = {
    Sys: { type: 'object', required: [...SYS_FIELDS], properties: Object.fromEntries(SYS_FIELDS.map((f) => [f, { type: 'string' }])) },
    Error: { type: 'object', required: ['message', 'error_code', 'detail'], properties: { message: { type: 'string' }, error_code: { type: 'string' }, detail: {} } },
  };
  const paths: Record<string, Json> = {};
  for (const route of api.routes.filter((r) => readable(r.folder))) {
    for (const [path, item] of Object.entries(operations(route, api.is_auth_required, components))) paths[path] = { ...paths[path], ...item };
    embed(model.collections.get(route.folder)?.json_schema ?? null, nameOf(route), components);
  }
  const schemes = {
    simple: { type: 'apiKey', in: 'header', name: 'Authorization', description: '`Simple <public_key>:<secret_key>` of a delivery key.' },
    bearer: { type: 'http', scheme: 'bearer', description: "A delivery key's bearer token." },
    secure: { type: 'apiKey', in: 'header', name: 'Authorization', description: '`Secure <public_key>:<signature>` with a `Date` header.' },
  };
  const keyed = [{ simple: [] }, { bearer: [] }, { secure: [] }];
  return {
    openapi: '3.1.0',
    info: { title: `Delivery API ${api.prefix}`, version: '1', description: api.is_auth_required ? 'Every request needs a delivery key.' : 'Public: reads need no credentials; a key may be sent.' },
    servers: [{ url: server }],
    security: api.is_auth_required ? keyed : [{}, ...keyed],
    paths,
    components: { schemas: components, securitySchemes: schemes },
  };
}

/** `GET {prefix}/_openapi`: reachable when `_router` is (router introspection on), for the routes this reader may read. */
export function apiOpenApi(ask: DeliveryAsk, env: string, api: DeliveryApi, model: EnvModel, readable: (folder: string) => boolean): ReadAnswer {
  if (!api.router_introspection_enabled) throw notFound('route_not_found', 'Route');
  const server = `${ask.origin}/${env}/${api.prefix}`;
  return readAnswer(apiDocument(api, model, server, readable), [env, api.key, ...api.routes.map((r) => r.folder)]);
}
