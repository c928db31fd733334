/** The values fuzzed requests are made of: path segments, queries, headers, bodies, credentials. */
import fc from 'fast-check';

/** Keys of existing entities, so that generated requests get past the 404s to the validation. */
export type Fixtures = Readonly<Record<string, string>>;

const nasty = fc.constantFrom('constructor', '__proto__', 'toString', 'hasOwnProperty', '..', '.', '%2e%2e', '%00', '%ZZ', '%', 'a'.repeat(300), '%20', '🙂', '\u0000', 'null', '-1', '1e309');

/** A path segment: mostly a real key (when there is one), else something odd. */
export const segment = (real: string | undefined) =>
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

export const query = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_NAMES), fc.string({ maxLength: 12 })), queryValue), { maxLength: 5 })
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));

export const ascii = fc.string({ maxLength: 60, unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) });

/** A value one request in five carries. */
export const sometimes = <T>(value: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: value, weight: 1 });

/** Headers the service reads besides credentials and content type, with odd values now and then. */
export const OTHER_HEADERS = {
  'x-request-id': sometimes(fc.oneof(ascii, fc.uuid(), fc.constant('a'.repeat(300)))),
  'accept-language': sometimes(fc.oneof(ascii, fc.constantFrom('de', 'de-DE,de;q=0.9', '*', ';q=x'))),
  'if-none-match': sometimes(fc.oneof(ascii, fc.constantFrom('*', 'W/"1"', '""', '"x", W/"y"'))),
  date: sometimes(fc.oneof(ascii, fc.constantFrom('2026-01-01T00:00:00Z', 'Thu, 01 Jan 1970 00:00:00 GMT', '9999-99-99T99:99:99Z'))),
  'x-forwarded-for': sometimes(fc.oneof(ascii, fc.constantFrom('1.2.3.4', '::1', 'unknown, 1.2.3.4'))),
  referer: sometimes(fc.oneof(ascii, fc.constant('https://fuzz.example/x'))),
};

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
export const WORDS = [
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

export const defined = (h: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(h).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));

export type FuzzRequest = { readonly method: string; readonly path: string; readonly headers: Record<string, string>; readonly body: string | undefined };

/** Delivery credentials: none, the fixture key (Simple or Bearer), a broken one. */
export const deliveryAuth = (credentials: readonly string[]) =>
  fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 3 },
    { arbitrary: fc.constantFrom(...credentials), weight: 5 },
    { arbitrary: fc.constantFrom('Simple', 'Simple a:b', 'Secure a:b', 'Bearer dlv_x', 'Bearer', 'Simple :', 'simple a:b'), weight: 1 },
    { arbitrary: ascii, weight: 1 },
  );
