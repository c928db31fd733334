import type { Express } from 'express';
import fc from 'fast-check';
import { routeTable } from '../../infra/http/route-table.js';
import { mcpBody } from './fuzz-agent.js';
import { ascii, bodies, defined, deliveryAuth, OTHER_HEADERS, query, segment, sometimes, type Fixtures, type FuzzRequest } from './fuzz-values.js';

export type { Fixtures, FuzzRequest } from './fuzz-values.js';

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

/** The delivery keys of a generated request: the public API's prefix or the one that requires credentials. */
const deliveryKeys = (fixtures: Fixtures) =>
  fc.record({
    ...Object.fromEntries(Object.entries(fixtures).map(([k, v]) => [k, segment(v)])),
    prefix: fc.oneof(
      { arbitrary: fc.constantFrom(...[fixtures.prefix, fixtures.private_prefix].filter((p): p is string => p !== undefined)), weight: 8 },
      { arbitrary: segment(undefined), weight: 1 },
    ),
  });

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
