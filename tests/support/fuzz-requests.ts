import fc from 'fast-check';

/** Every management route, with `{name}` where a key goes (read-api/ and write-api/ routers). */
export const MANAGEMENT_ROUTES: readonly (readonly [method: string, path: string])[] = [
  ['GET', '/v1/global-events/'],
  ['GET', '/v1/{env}/events/'],
  ['GET', '/v1/{env}/collections/tree/'],
  ['POST', '/v1/{env}/collections/tree/'],
  ['GET', '/v1/{env}/collections/tree/collection/'],
  ['PUT', '/v1/{env}/collections/tree/collection/'],
  ['DELETE', '/v1/{env}/collections/tree/collection/'],
  ['POST', '/v1/{env}/folders/tree/'],
  ['PUT', '/v1/{env}/folders/tree/folder/'],
  ['GET', '/v1/{env}/components/'],
  ['POST', '/v1/{env}/components/'],
  ['GET', '/v1/{env}/components/{component}/'],
  ['PUT', '/v1/{env}/components/{component}/'],
  ['DELETE', '/v1/{env}/components/{component}/'],
  ['GET', '/v1/{env}/{schema}/model/versions/'],
  ['POST', '/v1/{env}/{schema}/model/versions/'],
  ['GET', '/v1/{env}/{schema}/model/versions/{version}/'],
  ['PUT', '/v1/{env}/{schema}/model/versions/{version}/'],
  ['DELETE', '/v1/{env}/{schema}/model/versions/{version}/'],
  ['POST', '/v1/{env}/{schema}/model/versions/{version}/publish/'],
  ['GET', '/v1/{env}/{schema}/model/versions/{version}/schema/tree/'],
  ['POST', '/v1/{env}/{schema}/model/versions/{version}/schema/tree/'],
  ['GET', '/v1/{env}/{schema}/model/versions/{version}/schema/tree/field/'],
  ['PUT', '/v1/{env}/{schema}/model/versions/{version}/schema/tree/field/'],
  ['DELETE', '/v1/{env}/{schema}/model/versions/{version}/schema/tree/field/'],
  ['GET', '/v1/{env}/api/'],
  ['POST', '/v1/{env}/api/'],
  ['GET', '/v1/{env}/api/{api}/'],
  ['PUT', '/v1/{env}/api/{api}/'],
  ['PATCH', '/v1/{env}/api/{api}/'],
  ['DELETE', '/v1/{env}/api/{api}/'],
  ['GET', '/v1/{env}/api/{api}/collections/'],
  ['POST', '/v1/{env}/api/{api}/collections/'],
  ['POST', '/v1/{env}/api/{api}/folders/'],
  ['GET', '/v1/{env}/api/{api}/collections/{collection}/'],
  ['PUT', '/v1/{env}/api/{api}/collections/{collection}/'],
  ['DELETE', '/v1/{env}/api/{api}/collections/{collection}/'],
  ['GET', '/v1/{env}/collections/{collection}/resources/'],
  ['POST', '/v1/{env}/collections/{collection}/resources/'],
  ['PUT', '/v1/{env}/collections/{collection}/resources/'],
  ['GET', '/v1/{env}/collections/{collection}/resources/{resource}/'],
  ['PUT', '/v1/{env}/collections/{collection}/resources/{resource}/'],
  ['DELETE', '/v1/{env}/collections/{collection}/resources/{resource}/'],
  ['GET', '/v1/{env}/collections/{collection}/resources/{resource}/data/'],
  ['POST', '/v1/{env}/folders/{collection}/resources/'],
  ['GET', '/v1/{env}/collections/{collection}/resources/{resource}/revisions/'],
  ['POST', '/v1/{env}/collections/{collection}/resources/{resource}/revisions/'],
  ['GET', '/v1/{env}/collections/{collection}/resources/{resource}/revisions/{revision}/'],
  ['DELETE', '/v1/{env}/collections/{collection}/resources/{resource}/revisions/{revision}/'],
  ['GET', '/v1/{env}/collections/{collection}/resources/{resource}/revisions/{revision}/data/'],
  ['POST', '/v1/{env}/collections/{collection}/resources/{resource}/revisions/{revision}/publish/'],
  ['POST', '/v1/{env}/collections/{collection}/resources/{resource}/revisions/{revision}/validate/'],
  ['GET', '/v1/{env}/permissions/management-api/api-keys/'],
  ['POST', '/v1/{env}/permissions/management-api/api-keys/'],
  ['GET', '/v1/{env}/permissions/management-api/api-keys/{apikey}/'],
  ['GET', '/v1/{env}/locales/'],
  ['POST', '/v1/{env}/locales/'],
  ['GET', '/v1/{env}/locales/{code}/'],
  ['PUT', '/v1/{env}/locales/{code}/'],
  ['DELETE', '/v1/{env}/locales/{code}/'],
  ['GET', '/v1/{env}/no/such/route/'],
];

/** The delivery routes of the public `site` API: list and get-one of a connected collection. */
export const DELIVERY_ROUTES: readonly (readonly [method: string, path: string])[] = [
  ['GET', '/{env}/site/{alias}/'],
  ['GET', '/{env}/site/{alias}/{resource}/'],
  ['GET', '/{env}/{prefix}/{alias}/'],
];

/** Keys of existing entities, so that generated requests get past the 404s to the validation. */
export type Fixtures = Readonly<Record<string, string>>;

const nasty = fc.constantFrom('constructor', '__proto__', 'toString', 'hasOwnProperty', '..', '.', '%2e%2e', '%00', '%ZZ', '%', 'a'.repeat(300), '%20', '🙂', '\u0000', 'null', '-1', '1e309');

/** A path segment: mostly a real key (when there is one), else something odd. */
const segment = (real: string | undefined) =>
  fc.oneof(
    { arbitrary: fc.constant(real ?? 'missing'), weight: real === undefined ? 0 : 6 },
    { arbitrary: nasty, weight: 2 },
    { arbitrary: fc.string({ maxLength: 40 }).map(encodeURIComponent), weight: 2 },
    { arbitrary: fc.stringMatching(/^[a-z0-9]{1,16}$/), weight: 1 },
  );

const QUERY_NAMES = [
  'key', 'path', 'mode', 'limit', 'offset', 'ordering', 'wait', 'external_id', 'include_schema', 'validate_data', 'check_valid_drafts',
  'entity_type', 'entity_key', 'actor_type', 'actor_key', 'resource_owner', 'cursor', 'name', 'status', 'search', 'folder', 'depth', 'locale',
];

const queryValue = fc.oneof(
  fc.constantFrom('', 'true', 'false', '0', '-1', '1', '100', '9007199254740993', '1e309', 'NaN', 'descendants', 'children', 'ancestors', 'siblings', 'draft', 'instant', '-created_at'),
  fc.string({ maxLength: 30 }),
  fc.integer().map(String),
);

const query = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_NAMES), fc.string({ maxLength: 12 })), queryValue), { maxLength: 5 })
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));

const ascii = fc.string({ maxLength: 60, unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) });

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
    'if-match': fc.option(fc.oneof(fc.constantFrom('0', '1', '"1"', '*', '-1', 'W/"1"', '99999999999999999999'), ascii), { nil: undefined }),
  });

const FIELD_NAMES = [
  'name', 'alias', 'parent', 'strict_reference', 'auto_remove_revisions', 'auto_remove_schema_versions', 'content_type', 'data', 'mode', 'validate_data',
  'resource_owner', 'key', 'type', 'meta', 'required', 'localizable', 'unique', 'description', 'copy_from', 'check_valid_drafts', 'prefix', 'folder',
  'allowed_methods', 'is_public', 'cors_origins', 'unscoped_levels', 'flat_routes', 'code', 'is_default', 'role', 'items', 'match', 'component', 'version',
];

const deep = fc.integer({ min: 1, max: 150 }).map((n) => '['.repeat(n) + ']'.repeat(n));

/** A request body: JSON of any shape, plausible field names with wrong values, broken text, deep nesting. */
export const body = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 1 },
  { arbitrary: fc.dictionary(fc.constantFrom(...FIELD_NAMES), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }).map((o) => JSON.stringify(o)), weight: 6 },
  { arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)), weight: 2 },
  { arbitrary: fc.string({ maxLength: 80 }), weight: 1 },
  { arbitrary: deep, weight: 1 },
  { arbitrary: fc.constantFrom('{"data":{"title":1e400}}', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}', '{', 'null', '"', '{"name":"\\ud800"}'), weight: 1 },
);

export type FuzzRequest = { readonly method: string; readonly path: string; readonly headers: Record<string, string>; readonly body: string | undefined };

/** A management request on one of the routes, keys filled from the fixtures or generated. */
export function managementRequest(fixtures: Fixtures, token: string) {
  return fc
    .tuple(fc.constantFrom(...MANAGEMENT_ROUTES), fc.record(Object.fromEntries(Object.entries(fixtures).map(([k, v]) => [k, segment(v)]))), query, headers(token), body)
    .map(([[method, template], keys, q, h, b]): FuzzRequest => {
      // A DELETE with a real key may succeed and remove a fixture: deletes get generated keys in their last segment.
      let path = template.replace(/\{(\w+)\}/g, (_, name: string) => keys[name] ?? 'missing');
      if (method === 'DELETE' && /\}\/$/.test(template)) path = path.replace(/[^/]+\/$/, 'zz-nothing/');
      const sent = Object.fromEntries(Object.entries(h).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
      return { method, path: q ? `${path}?${q}` : path, headers: sent, body: method === 'GET' ? undefined : b };
    });
}

/** A delivery request: anonymous, odd queries and keys. */
export function deliveryRequest(fixtures: Fixtures) {
  return fc.tuple(fc.constantFrom(...DELIVERY_ROUTES), fc.record(Object.fromEntries(Object.entries(fixtures).map(([k, v]) => [k, segment(v)]))), query, fc.option(ascii, { nil: undefined })).map(
    ([[method, template], keys, q, auth]): FuzzRequest => {
      const path = template.replace(/\{(\w+)\}/g, (_, name: string) => keys[name] ?? 'missing');
      return { method, path: q ? `${path}?${q}` : path, headers: auth ? { authorization: auth } : {}, body: undefined };
    },
  );
}
