import { requestSchemas, type RegisteredSchema } from '../../write-api/validate.js';
import { allowedParameters } from '../http/query-parameters.js';
import type { RouteEntry } from '../http/route-table.js';
import { errorCodesOf } from './error-codes.js';
import { areaOf, summaryOf } from './operation-words.js';
import { RESPONSES, type ResponseEntry } from './responses.js';
import { COMPONENT_SCHEMAS, ref } from './schemas.js';

type Json = Record<string, unknown>;

export type DocumentOptions = {
  readonly title: string;
  readonly description: string;
  /** Security requirement of every route but the operations and reference ones. */
  readonly security: readonly Json[];
  readonly securitySchemes: Json;
};

/** Routes every interface serves without credentials. */
const OPEN_ROUTES = new Set(['/healthz', '/readyz', '/metrics', '/openapi.json', '/docs/', '/docs/standalone.js']);

/** What an `ALL` route (the delivery catch-all) is documented as: the methods it serves today. */
const ALL_METHODS = ['GET', 'OPTIONS'];

/** `/v1/:env/locales/:code/` → `/v1/{env}/locales/{code}/`; a `*name` wildcard becomes `{name}` (one or more segments). */
export const openApiPath = (path: string): string => path.replace(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

const paramNames = (path: string): { name: string; wildcard: boolean }[] =>
  [...path.matchAll(/([:*])([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => ({ name: m[2] ?? '', wildcard: m[1] === '*' }));

const matches = (entry: { method: string; path: string }, method: string, path: string): boolean => entry.method === method && path.endsWith(entry.path);

function parameters(route: RouteEntry, method: string, query: RegisteredSchema | undefined, paged: boolean): Json[] {
  const inPath = paramNames(route.path).map(({ name, wildcard }) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
    ...(wildcard ? { description: 'One or more path segments joined by `/`.' } : {}),
  }));
  const properties = (query?.schema as { properties?: Record<string, Json>; required?: string[] } | undefined)?.properties ?? {};
  const required = new Set((query?.schema as { required?: string[] } | undefined)?.required ?? []);
  const inQuery = Object.entries(properties).map(([name, schema]) => ({ name, in: 'query', required: required.has(name), schema }));
  const paging = paged
    ? [
        { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 100 }, description: 'Page size; above 100 falls back to 100.' },
        { name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 } },
      ]
    : [];
  // Every other query parameter the route takes (the strict parameter check's list): a string.
  const named = new Set([...inQuery, ...paging].map((p) => p.name));
  const declared = [...allowedParameters(method, route.path)].filter((name) => !named.has(name)).map((name) => ({ name, in: 'query', required: false, schema: { type: 'string' } }));
  return [...inPath, ...inQuery, ...paging, ...declared];
}

function requestBody(method: string, body: RegisteredSchema | undefined): Json | undefined {
  if (body) {
    const required = ((body.schema as { required?: unknown[] }).required ?? []).length > 0;
    return { required, content: { 'application/json': { schema: body.schema } } };
  }
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    return { required: false, description: 'A JSON body; no schema is registered for this route.', content: { 'application/json': { schema: {} } } };
  }
  return undefined;
}

/** Each error status the operation can answer, its description naming every `error_code` it carries. */
function errorResponses(method: string, path: string, open: boolean): Json {
  const envelope = { 'application/json': { schema: ref('Error') } };
  const entries = [...errorCodesOf(method, path, open)].map(([status, codes]) => [String(status), { description: `\`error_code\`: ${codes.map((c) => `\`${c}\``).join(', ')}.`, content: envelope }]);
  return { ...Object.fromEntries(entries), default: { description: 'An error in the common envelope.', content: envelope } };
}

function responses(method: string, path: string, known: ResponseEntry | undefined, open: boolean): Json {
  const errors = errorResponses(method, path, open);
  if (known) {
    const content = known.schema === undefined ? {} : { content: { [known.type ?? 'application/json']: { schema: known.schema } } };
    return { [known.status]: { description: known.description, ...content }, ...errors };
  }
  if (method === 'DELETE' || method === 'OPTIONS') return { '204': { description: 'Done; no body.' }, ...errors };
  return { '2XX': { description: 'Success (no response schema is registered for this route).', content: { 'application/json': { schema: {} } } }, ...errors };
}

function operation(route: RouteEntry, method: string, options: DocumentOptions): Json {
  const schemas = requestSchemas().filter((s) => matches(s, method, route.path));
  const known = RESPONSES.find((r) => matches(r, method, route.path));
  const body = requestBody(method, schemas.find((s) => s.in === 'body'));
  const open = OPEN_ROUTES.has(route.path);
  return {
    operationId: `${method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: summaryOf(method, route.path),
    description: `\`${method} ${openApiPath(route.path)}\``,
    tags: [areaOf(route.path)],
    parameters: parameters(route, method, schemas.find((s) => s.in === 'query'), known?.paged === true),
    ...(body ? { requestBody: body } : {}),
    responses: responses(method, route.path, known, open),
    ...(open ? { security: [] } : { security: options.security }),
  };
}

/**
 * The OpenAPI 3.1 document of an interface, from its route table (every method and path it
 * serves, routers added later included) and the request schemas the write side validates
 * with. A route without a registered schema is described generically (docs/decisions/0111).
 */
export function openApiDocument(routes: readonly RouteEntry[], options: DocumentOptions): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    for (const method of route.method === 'ALL' ? ALL_METHODS : [route.method]) {
      const item = (paths[path] ??= {});
      const key = method.toLowerCase();
      if (item[key] || key === 'head') continue;
      item[key] = operation(route, method, options);
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: options.title, version: '1', description: options.description },
    servers: [{ url: '/' }],
    // Applied to the whole document (reference pages offer these credentials); open routes say `security: []`.
    security: options.security,
    paths,
    components: { schemas: COMPONENT_SCHEMAS, securitySchemes: options.securitySchemes },
  };
}
