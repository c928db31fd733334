import type { Express } from 'express';
import fc from 'fast-check';
import { routeTable } from '../../infra/http/route-table.js';

/** A route as a template: `{name}` where a key goes (`/v1/{env}/api/{api}/`). */
export type RouteTemplate = readonly [method: string, path: string];

/** Every management route the app really serves, from its route table, plus one that does not exist. */
export function managementRoutes(app: Express): RouteTemplate[] {
  const seen = new Set<string>();
  const routes: RouteTemplate[] = [];
  for (const { method, path } of routeTable(app)) {
    const template = path.replace(/:(\w+)/g, '{$1}');
    if (seen.has(`${method} ${template}`)) continue;
    seen.add(`${method} ${template}`);
    routes.push([method, template]);
  }
  return [...routes, ['GET', '/v1/{env}/no/such/route/']];
}

/**
 * The delivery app has one route (`/:env/:prefix/*segments`) and dispatches inside it:
 * these are the address shapes it answers, on the fixture API (all methods allowed, MCP on).
 */
export const DELIVERY_ROUTES: readonly RouteTemplate[] = [
  ['GET', '/{env}/{prefix}/{alias}/'],
  ['GET', '/{env}/{prefix}/{alias}/{resource}/'],
  ['GET', '/{env}/{prefix}/{alias}/_schema'],
  ['GET', '/{env}/{prefix}/{alias}/_schema/'],
  ['GET', '/{env}/{prefix}/_router'],
  ['GET', '/{env}/{prefix}/{alias}/_search'],
  ['POST', '/{env}/{prefix}/{alias}/_search'],
  ['GET', '/{env}/{prefix}/_mcp'],
  ['POST', '/{env}/{prefix}/_mcp'],
  ['DELETE', '/{env}/{prefix}/_mcp'],
  ['POST', '/{env}/{prefix}/{alias}/'],
  ['PUT', '/{env}/{prefix}/{alias}/{resource}/'],
  ['PATCH', '/{env}/{prefix}/{alias}/{resource}/'],
  ['DELETE', '/{env}/{prefix}/{alias}/{resource}/'],
  ['OPTIONS', '/{env}/{prefix}/{alias}/'],
  ['GET', '/{env}/{prefix}/{alias}/{resource}/{alias}/'],
];

/** `{key}` names a management key on management-api paths and a delivery key on delivery-api and flux-api paths, `{role}` likewise; `{code}` is a plan on plan paths. */
export function fill(template: string, keys: Readonly<Record<string, string>>): string {
  const delivery = /\/(delivery|flux)-api\//.test(template);
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === 'code' && template.includes('/plan/')) return keys.plan ?? 'missing';
    const own = delivery && (name === 'key' || name === 'role') ? keys[`delivery_${name}`] : keys[name];
    return own ?? 'missing';
  });
}

/** Keys of existing entities, so that generated requests get past the 404s to the validation. */
export type Fixtures = Readonly<Record<string, string>>;

const nasty = fc.constantFrom('constructor', '__proto__', 'toString', 'hasOwnProperty', '..', '.', '%2e%2e', '%00', '%ZZ', '%', 'a'.repeat(300), '%20', '🙂', '\u0000', 'null', '-1', '1e309');

/** A path segment: mostly a real key (when there is one), else something odd. */
const segment = (real: string | undefined) =>
  fc.oneof(
    { arbitrary: fc.constant(real ?? 'missing'), weight: real === undefined ? 0 : 20 },
    { arbitrary: nasty, weight: 2 },
    { arbitrary: fc.string({ maxLength: 40 }).map(encodeURIComponent), weight: 2 },
    { arbitrary: fc.stringMatching(/^[a-z0-9]{1,16}$/), weight: 1 },
  );

const QUERY_NAMES = [
  'key', 'path', 'mode', 'limit', 'offset', 'ordering', 'wait', 'external_id', 'include_schema', 'validate_data', 'check_valid_drafts',
  'entity_type', 'entity_key', 'actor_type', 'actor_key', 'resource_owner', 'cursor', 'name', 'status', 'search', 'folder', 'depth', 'locale',
  'as_of', 'from', 'stream', 'stream_prefix', 'collection', 'event_type', 'follow', 'format', 'content_type', 'page', 'page_size', 'fields', 'populate',
  'where__title__eq', 'sort', 'q', 'environment', 'project', 'region', 'all_objects',
];

const queryValue = fc.oneof(
  fc.constantFrom('', 'true', 'false', '0', '-1', '1', '100', '9007199254740993', '1e309', 'NaN', 'descendants', 'children', 'ancestors', 'siblings', 'draft', 'instant', '-created_at',
    '2020-01-01T00:00:00Z', '2999-01-01T00:00:00Z', 'position:0', 'position:1', 'position:99999999999999999999', 'position:', 'ndjson', 'sse', 'flux-apis', 'title'),
  fc.string({ maxLength: 30 }),
  fc.integer().map(String),
);

const query = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_NAMES), fc.string({ maxLength: 12 })), queryValue), { maxLength: 5 })
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));

const ascii = fc.string({ maxLength: 60, unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) });

/** A value one request in five carries. */
const sometimes = <T>(value: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: value, weight: 1 });

/** Headers the service reads besides credentials and content type, with odd values now and then. */
const OTHER_HEADERS = {
  'x-request-id': sometimes(fc.oneof(ascii, fc.uuid(), fc.constant('a'.repeat(300)))),
  'accept-language': sometimes(fc.oneof(ascii, fc.constantFrom('de', 'de-DE,de;q=0.9', '*', ';q=x'))),
  'if-none-match': sometimes(fc.oneof(ascii, fc.constantFrom('*', 'W/"1"', '""', '"x", W/"y"'))),
  date: sometimes(fc.oneof(ascii, fc.constantFrom('2026-01-01T00:00:00Z', 'Thu, 01 Jan 1970 00:00:00 GMT', '9999-99-99T99:99:99Z'))),
  'x-forwarded-for': sometimes(fc.oneof(ascii, fc.constantFrom('1.2.3.4', '::1', 'unknown, 1.2.3.4'))),
  referer: sometimes(fc.oneof(ascii, fc.constant('https://fuzz.example/x'))),
};

/** Headers: usually the valid token, sometimes none or a broken one; odd content types and If-Match values. */
export const headers = (token: string) =>
  fc.record({
    authorization: fc.oneof(
      { arbitrary: fc.constant(`Bearer ${token}`), weight: 8 },
      { arbitrary: fc.constantFrom('', 'Bearer', 'Bearer ', `Bearer ${token}x`, `bearer ${token}`, `Basic ${token}`, 'Bearer a:b', 'Bearer :'), weight: 1 },
      { arbitrary: ascii.map((s) => `Bearer ${s}`), weight: 1 },
    ),
    'content-type': fc.oneof(
      { arbitrary: fc.constant('application/json'), weight: 6 },
      { arbitrary: fc.constantFrom('text/plain', 'application/json; charset=utf-16', 'application/x-www-form-urlencoded', 'application/merge-patch+json', 'multipart/form-data'), weight: 1 },
      { arbitrary: ascii, weight: 1 },
    ),
    'if-match': sometimes(fc.oneof(fc.constantFrom('0', '1', '"1"', '*', '-1', 'W/"1"', '99999999999999999999'), ascii)),
    ...OTHER_HEADERS,
  });

const FIELD_NAMES = [
  'name', 'alias', 'parent', 'strict_reference', 'auto_remove_revisions', 'auto_remove_schema_versions', 'content_type', 'data', 'mode', 'validate_data',
  'resource_owner', 'key', 'type', 'meta', 'required', 'localizable', 'unique', 'description', 'copy_from', 'check_valid_drafts', 'prefix', 'folder',
  'allowed_methods', 'is_public', 'cors_origins', 'unscoped_levels', 'flat_routes', 'code', 'is_default', 'role', 'items', 'match', 'component', 'version',
  'is_enabled', 'protection_level', 'protection_reason', 'actions', 'all_objects', 'objects', 'permissions', 'region', 'plan', 'default_locale',
  'mcp_enabled', 'is_auth_required', 'jsonrpc', 'method', 'params', 'id', 'query', 'title', 'views', 'expires_at', 'public_key', 'secret_key',
  'external_id',
];

const deep = fc.integer({ min: 1, max: 150 }).map((n) => '['.repeat(n) + ']'.repeat(n));

/** Words the service's bodies take (types, modes, actions, levels, content types): values that pass the first checks more often than random ones. */
const WORDS = [
  'string', 'text', 'integer', 'number', 'boolean', 'object', 'array', 'reference', 'relation', 'component', 'date', 'datetime', 'any', 'draft', 'instant',
  'read', 'create', 'update', 'delete', 'get_many', 'get_one', 'none', 'read_only', 'locked', 'flux-apis', 'collections', 'folders', 'resources', 'document',
  'collection', 'folder', 'de', 'en', 'free', 'pro', 'title', '*', 'https://fuzz.example', 'eu', '1', 'ext-1',
];

/** A field value: any JSON, a word of the domain, a fixture's key, or a small structure of those. */
const plausible = (fixtures: Fixtures) => {
  const atom = fc.oneof(
    { arbitrary: fc.constantFrom(...WORDS, ...Object.values(fixtures)), weight: 4 },
    { arbitrary: fc.oneof(fc.boolean(), fc.integer({ min: -2, max: 1001 }), fc.constant(null)), weight: 2 },
    { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 2 },
  );
  return fc.oneof(
    { arbitrary: atom, weight: 6 },
    { arbitrary: fc.array(atom, { maxLength: 4 }), weight: 2 },
    { arbitrary: fc.dictionary(fc.constantFrom(...FIELD_NAMES), atom, { maxKeys: 3 }), weight: 2 },
  );
};

/** A request body: JSON of any shape, plausible field names with plausible or wrong values, broken text, deep nesting. */
export const bodies = (fixtures: Fixtures) =>
  fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 1 },
    { arbitrary: fc.dictionary(fc.constantFrom(...FIELD_NAMES), plausible(fixtures), { maxKeys: 6 }).map((o) => JSON.stringify(o)), weight: 5 },
    { arbitrary: fc.dictionary(fc.constantFrom(...FIELD_NAMES), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }).map((o) => JSON.stringify(o)), weight: 2 },
    { arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)), weight: 1 },
    { arbitrary: fc.string({ maxLength: 80 }), weight: 1 },
    { arbitrary: deep, weight: 1 },
    { arbitrary: fc.constantFrom('{"data":{"title":1e400}}', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}', '{', 'null', '"', '{"name":"\\ud800"}'), weight: 1 },
  );

const defined = (h: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(h).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));

export type FuzzRequest = { readonly method: string; readonly path: string; readonly headers: Record<string, string>; readonly body: string | undefined };

/** Everything of a management request but its route: keys (from the fixtures or generated), query, headers and body. */
export const managementParts = (fixtures: Fixtures, token: string) =>
  fc.tuple(
    fc.record(Object.fromEntries(Object.entries(fixtures).map(([k, v]) => [k, segment(v)]))),
    query,
    headers(token),
    bodies(fixtures),
    fc.oneof({ arbitrary: fc.constant(undefined), weight: 9 }, { arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'), weight: 1 }),
  );

export type ManagementParts = [keys: Record<string, string>, query: string, headers: Record<string, string | undefined>, body: string | undefined, method: string | undefined];

/**
 * The request the parts make on one route, now and then with another method than the route's.
 * A DELETE with a real key may succeed and remove a fixture: deletes get a generated key in their last segment.
 */
export function onRoute([routeMethod, template]: RouteTemplate, [keys, q, h, b, otherMethod]: ManagementParts): FuzzRequest {
  const method = otherMethod ?? routeMethod;
  let path = fill(template, keys);
  if (method === 'DELETE' && /\}\/$/.test(template)) path = path.replace(/[^/]+\/$/, 'zz-nothing/');
  const sent = Object.fromEntries(Object.entries(h).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
  return { method, path: q ? `${path}?${q}` : path, headers: sent, body: method === 'GET' ? undefined : b };
}

/** A management request on one of the routes, keys filled from the fixtures or generated. */
export function managementRequest(routes: readonly RouteTemplate[], fixtures: Fixtures, token: string) {
  return fc.tuple(fc.constantFrom(...routes), managementParts(fixtures, token)).map(([route, parts]) => onRoute(route, parts as ManagementParts));
}

const rpc = (method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
const TOOLS = ['discover', 'get_schema', 'get_record', 'query_records', 'search_records', 'create_record', 'update_record', 'nope', '__proto__'];

/** An agent call: initialize, list, or a tool with generated arguments (the replayed REST call gets them). */
const mcpBody = (alias: string, resource: string) =>
  fc.oneof(
    fc.constant(rpc('initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } })),
    fc.constant(rpc('tools/list', {})),
    fc
      .tuple(
        fc.constantFrom(...TOOLS),
        fc.dictionary(
          fc.constantFrom('collection_path', 'key', 'where', 'data', 'query', 'limit', 'locale', 'fields', 'cursor', 'next', 'search_mode', 'sort'),
          fc.oneof(
            { arbitrary: fc.constantFrom(alias, resource, `${alias}/../x`, '_mcp', `${alias}/_schema`, '', `${alias}/${resource}`, '%2e%2e', '?x=1'), weight: 3 },
            { arbitrary: fc.dictionary(fc.constantFrom('title', 'title__eq', '$', 'all_of', 'views', '__proto__'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }), weight: 1 },
            { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 2 },
          ),
          { maxKeys: 4 },
        ),
      )
      .map(([name, args]) => rpc('tools/call', { name, arguments: args })),
    fc.constantFrom(...TOOLS).map((name) => rpc('tools/call', { name, arguments: { collection_path: alias, key: resource, data: { title: 'agent' } } })),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  );

/** A tool as `tools/list` describes it. */
export type ToolSchema = { readonly name: string; readonly inputSchema: { readonly properties?: Record<string, JsonSchema>; readonly required?: readonly string[] } };
type JsonSchema = { readonly type?: string; readonly enum?: readonly unknown[]; readonly items?: JsonSchema };

/** A value mostly of the schema's type (enums, strings of the domain, small objects), now and then anything. */
function valueFor(schema: JsonSchema, name: string, fixtures: Fixtures): fc.Arbitrary<unknown> {
  const known: Record<string, unknown[]> = {
    collection_path: [fixtures.alias, `${fixtures.alias}/${fixtures.resource}`, `${fixtures.alias}/_schema`, '..', '', 'nope'],
    key: [fixtures.resource, 'zz-nothing', '..', '_schema', '%2F'],
    populate: ['*', 'title', 'x.y', ''],
    next: ['', 'eyJ4IjoxfQ', '%%'],
  };
  const typed: fc.Arbitrary<unknown> =
    schema.enum !== undefined ? fc.constantFrom(...schema.enum)
    : schema.type === 'string'
      ? fc.oneof(
          { arbitrary: fc.constantFrom(...(known[name] ?? WORDS)), weight: known[name] ? 8 : 2 },
          { arbitrary: fc.constantFrom(...WORDS), weight: 1 },
          { arbitrary: fc.string({ maxLength: 20 }), weight: 1 },
        )
    : schema.type === 'integer' || schema.type === 'number' ? fc.oneof(fc.integer({ min: -1, max: 1001 }), fc.constantFrom(0, 1, 100, 1e9))
    : schema.type === 'boolean' ? fc.boolean()
    : schema.type === 'array' ? fc.array(fc.oneof(fc.constantFrom(...WORDS), fc.string({ maxLength: 8 })), { maxLength: 3 })
    : fc.oneof(
        fc.constant({ title: 'agent' }),
        fc.dictionary(fc.constantFrom('title', 'title__eq', 'title__icontains', 'query', 'fields', 'top_k', '$', 'all_of', 'any_of', '__proto__'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
      );
  return fc.oneof({ arbitrary: typed, weight: 8 }, { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 });
}

/** Calls of the listed tools: their required arguments (mostly), some optional ones, values mostly of the right type. */
export function toolCalls(tools: readonly ToolSchema[], fixtures: Fixtures): fc.Arbitrary<string> {
  return fc.oneof(
    ...tools.map(({ name, inputSchema }) => {
      const properties = Object.entries(inputSchema.properties ?? {});
      const required = new Set(inputSchema.required ?? []);
      const args = properties.length === 0
        ? fc.constant({})
        : fc.record(Object.fromEntries(properties.map(([prop, schema]) => [prop, valueFor(schema, prop, fixtures)])), {
            requiredKeys: properties.filter(([prop]) => required.has(prop) && prop !== 'data').map(([prop]) => prop),
          });
      return args.map((a) => rpc('tools/call', { name, arguments: a }));
    }),
  );
}

/** An agent call on the public API's agent endpoint, mostly in a live session: initialize, list, tools with generated arguments, odd JSON-RPC. */
export function agentRequest(fixtures: Fixtures, credentials: readonly string[], sessions: readonly string[], tools: readonly ToolSchema[] = []) {
  return fc
    .tuple(
      deliveryAuth(credentials),
      fc.oneof({ arbitrary: fc.constantFrom(...sessions), weight: 8 }, { arbitrary: fc.constant(undefined), weight: 1 }, { arbitrary: fc.uuid(), weight: 1 }),
      fc.oneof(
        { arbitrary: mcpBody(fixtures.alias ?? 'x', fixtures.resource ?? 'x'), weight: 3 },
        { arbitrary: tools.length > 0 ? toolCalls(tools, fixtures) : fc.constant('{}'), weight: tools.length > 0 ? 6 : 0 },
        { arbitrary: bodies(fixtures), weight: 1 },
      ),
    )
    .map(([authorization, session, b]): FuzzRequest => {
      const sent: Record<string, string> = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
      if (authorization) sent.authorization = authorization;
      if (session) sent['mcp-session-id'] = session;
      return { method: 'POST', path: `/${fixtures.env}/${fixtures.prefix}/_mcp`, headers: sent, body: b };
    });
}

/** Delivery credentials: none, the fixture key (Simple or Bearer), a broken one. */
const deliveryAuth = (credentials: readonly string[]) =>
  fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 3 },
    { arbitrary: fc.constantFrom(...credentials), weight: 5 },
    { arbitrary: fc.constantFrom('Simple', 'Simple a:b', 'Secure a:b', 'Bearer dlv_x', 'Bearer', 'Simple :', 'simple a:b'), weight: 1 },
    { arbitrary: ascii, weight: 1 },
  );

/** The delivery keys of a generated request: the public API's prefix or the one that requires credentials. */
const deliveryKeys = (fixtures: Fixtures) =>
  fc.record({
    ...Object.fromEntries(Object.entries(fixtures).map(([k, v]) => [k, segment(v)])),
    prefix: fc.oneof(
      { arbitrary: fc.constantFrom(...[fixtures.prefix, fixtures.private_prefix].filter((p): p is string => p !== undefined)), weight: 8 },
      { arbitrary: segment(undefined), weight: 1 },
    ),
  });

/** The reads the delivery front may answer from remembered bytes (GET without a body). */
export const DELIVERY_READS: readonly RouteTemplate[] = DELIVERY_ROUTES.filter(([method, path]) => method === 'GET' && !path.includes('_mcp'));

/** Reads are GET, and HEAD now and then. */
const readMethod = fc.oneof({ arbitrary: fc.constant('GET'), weight: 4 }, { arbitrary: fc.constant('HEAD'), weight: 1 });

export type RepeatedRead = { readonly path: string; readonly first: Record<string, string>; readonly then: Record<string, string>; readonly methods: readonly [string, string] };

/**
 * One address read twice, with independently generated credentials and conditional headers:
 * the second read may be answered from the bytes the first one left behind.
 */
export function repeatedRead(fixtures: Fixtures, credentials: readonly string[]) {
  const readHeaders = fc
    .tuple(deliveryAuth(credentials), fc.option(fc.constantFrom('*', '"x"', 'W/"1"', ''), { nil: undefined }), fc.option(fc.constantFrom('https://fuzz.example', 'null', 'http://127.0.0.1'), { nil: undefined }))
    .map(([authorization, ifNoneMatch, origin]) => {
      const h: Record<string, string> = {};
      if (authorization) h.authorization = authorization;
      if (ifNoneMatch) h['if-none-match'] = ifNoneMatch;
      if (origin) h.origin = origin;
      return h;
    });
  return fc
    .tuple(fc.constantFrom(...DELIVERY_READS), deliveryKeys(fixtures), fc.oneof({ arbitrary: fc.constant(''), weight: 2 }, { arbitrary: query, weight: 1 }), readHeaders, readHeaders, readMethod, readMethod)
    .map(([[, template], keys, q, first, then, one, two]): RepeatedRead => {
      const path = fill(template, keys);
      return { path: q ? `${path}?${q}` : path, first, then, methods: [one, two] };
    });
}

/** A delivery request: anonymous or with the fixture key (Simple or Bearer) or a broken one; odd queries, bodies and keys. */
export function deliveryRequest(fixtures: Fixtures, credentials: readonly string[], sessions: readonly string[] = []) {
  const auth = deliveryAuth(credentials);
  // Mostly a live agent session (opened by the test), so that tool calls reach the tools.
  const session = fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 2 },
    { arbitrary: sessions.length > 0 ? fc.constantFrom(...sessions) : fc.uuid(), weight: sessions.length > 0 ? 6 : 0 },
    { arbitrary: fc.oneof(fc.uuid(), ascii), weight: 1 },
  );
  return fc
    .tuple(
      fc.constantFrom(...DELIVERY_ROUTES),
      deliveryKeys(fixtures),
      query,
      auth,
      fc.oneof({ arbitrary: bodies(fixtures), weight: 2 }, { arbitrary: mcpBody(fixtures.alias ?? 'x', fixtures.resource ?? 'x'), weight: 1 }),
      fc.constantFrom('application/json', 'application/json, text/event-stream', 'text/event-stream', '*/*'),
      fc.oneof({ arbitrary: fc.constant('application/json'), weight: 6 }, { arbitrary: ascii, weight: 1 }),
      session,
      fc.record(OTHER_HEADERS),
    )
    .map(([[method, template], keys, q, authorization, b, accept, type, sessionId, other]): FuzzRequest => {
      const path = fill(template, keys);
      const sent: Record<string, string> = { ...defined(other), accept, 'content-type': type, origin: 'https://fuzz.example' };
      if (authorization) sent.authorization = authorization;
      if (sessionId) sent['mcp-session-id'] = sessionId;
      const withBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
      return { method, path: q ? `${path}?${q}` : path, headers: sent, body: withBody ? b : undefined };
    });
}
