import type { Express, RequestHandler } from 'express';
import { DomainError } from '../../domain/errors.js';
import { matchers, routeLabel } from '../observability/http-metrics.js';

/**
 * The query parameters each management route takes (docs/decisions/0334): any other is 422
 * validation_error naming it, as on the delivery interface, so that a parameter that belongs in
 * the body (`?mode=draft`) is never silently ignored. A route not listed takes none.
 *
 * Each entry names a method and the end of route templates (`/resources/` is the collections and
 * the folders form alike); the first entry that fits a route is its list.
 */
const PAGE = ['limit', 'offset'];
const CREATED_AT = ['created_at', 'created_at__gt', 'created_at__gte', 'created_at__lt', 'created_at__lte'];
const EVENT_FILTERS = [...PAGE, 'ordering', 'event_type', 'entity_type', 'entity_key', 'referer', 'ip_address', 'actor_key', 'from_timestamp', 'to_timestamp'];
const REPLAY = ['from', 'stream', 'stream_prefix', 'collection', 'event_type', 'format', 'follow', 'limit'];
/** `component`: the product's client library sends it on resource writes when asked to; composite folders are gone, so it changes nothing. */
const RESOURCE_WRITE = ['external_id', 'wait', 'component'];

export const QUERY_PARAMETERS: readonly { readonly method: string; readonly path: string; readonly names: readonly string[] }[] = [
  { method: 'GET', path: '/v1/global-events/', names: [...EVENT_FILTERS, 'project_key'] },
  { method: 'GET', path: '/global-events/stream/', names: REPLAY },
  { method: 'GET', path: '/events/stream/', names: REPLAY },
  { method: 'GET', path: '/v1/:env/events/', names: [...EVENT_FILTERS, 'actor_type', 'collection_key', 'resource_key', 'schema_key', 'api_key'] },
  { method: 'GET', path: '/organizations/:org/projects/', names: PAGE },
  // Lists the product answers as bare arrays: paging parameters are taken and change nothing.
  { method: 'GET', path: '/organizations/', names: PAGE },
  { method: 'GET', path: '/environments/', names: PAGE },
  { method: 'GET', path: '/locales/', names: PAGE },
  { method: 'GET', path: '/roles/:role/permissions/', names: PAGE },
  { method: 'GET', path: '/resources/', names: [...PAGE, 'ordering', 'status', ...CREATED_AT, 'content_type', 'resource_owner', 'external_id', 'key__in', 'as_of'] },
  { method: 'GET', path: '/resources/:resource/', names: ['as_of'] },
  { method: 'GET', path: '/resources/:resource/data/', names: ['as_of'] },
  { method: 'POST', path: '/resources/', names: RESOURCE_WRITE },
  { method: 'PUT', path: '/resources/', names: RESOURCE_WRITE },
  { method: 'GET', path: '/revisions/', names: [...PAGE, 'ordering', 'status'] },
  { method: 'GET', path: '/schema/tree/', names: [...PAGE, 'path', 'mode'] },
  { method: 'GET', path: '/schema/tree/field/', names: ['path'] },
  { method: 'PUT', path: '/schema/tree/field/', names: ['path'] },
  { method: 'DELETE', path: '/schema/tree/field/', names: ['path'] },
  { method: 'GET', path: '/tree/', names: [...PAGE, 'key', 'mode'] },
  { method: 'GET', path: '/tree/collection/', names: ['key', 'path'] },
  { method: 'GET', path: '/tree/folder/', names: ['key', 'path'] },
  { method: 'PUT', path: '/tree/collection/', names: ['key'] },
  { method: 'PUT', path: '/tree/folder/', names: ['key'] },
  { method: 'DELETE', path: '/tree/collection/', names: ['key'] },
  { method: 'DELETE', path: '/tree/folder/', names: ['key'] },
  { method: 'GET', path: '/v1/:env/components/', names: [...PAGE, 'ordering', ...CREATED_AT] },
  { method: 'GET', path: '/model/versions/', names: [...PAGE, 'include_schema', 'ordering'] },
  { method: 'POST', path: '/model/versions/', names: ['copy_from'] },
  { method: 'GET', path: '/model/versions/:version/', names: ['include_schema'] },
  { method: 'GET', path: '/v1/:env/api/', names: PAGE },
  { method: 'GET', path: '/api/:api/collections/', names: PAGE },
  { method: 'GET', path: '/api/:api/folders/', names: PAGE },
  { method: 'GET', path: '/api-keys/', names: PAGE },
  { method: 'GET', path: '/roles/', names: PAGE },
  { method: 'GET', path: '/roles/:role/permissions/objects/', names: [...PAGE, 'content_type'] },
  { method: 'DELETE', path: '/roles/:role/permissions/', names: ['content_type'] },
  { method: 'GET', path: '/v1/audit/checkpoints/', names: PAGE },
  { method: 'GET', path: '/v1/:env/webhooks/', names: PAGE },
  { method: 'GET', path: '/webhooks/:key/deliveries/', names: PAGE },
  { method: 'GET', path: '/v1/:env/schedules/', names: PAGE },
];

/** The query parameters the route `template` takes for `method` (HEAD as GET). */
export function allowedParameters(method: string, template: string): ReadonlySet<string> {
  const wanted = method === 'HEAD' ? 'GET' : method;
  return new Set(QUERY_PARAMETERS.find((entry) => entry.method === wanted && template.endsWith(entry.path))?.names ?? []);
}

/**
 * Refuses a management request whose query holds a parameter its route does not take. After the
 * credentials (an unauthenticated request stays a 401), before every handler; a request without
 * a query string costs nothing. Requests no route takes are left to the 404.
 */
export function strictQueryParameters(): RequestHandler {
  let routes: ReturnType<typeof matchers> | null = null;
  // The route and parameters of each method and path seen lately: finding the route tests the templates one by one.
  const seen = new Map<string, { readonly route: string; readonly names: ReadonlySet<string> } | null>();
  const routeOf = (app: Express, method: string, path: string) => {
    const id = `${method} ${path}`;
    let found = seen.get(id);
    if (found === undefined) {
      routes ??= matchers(app);
      const route = routeLabel(routes, method, path);
      found = route === 'unmatched' ? null : { route, names: allowedParameters(method, route) };
      if (seen.size >= 10_000) seen.clear();
      seen.set(id, found);
    }
    return found;
  };
  return (req, _res, next) => {
    if (!req.originalUrl.includes('?')) return next();
    const found = routeOf(req.app as Express, req.method, req.path);
    if (found === null) return next();
    const unknown = Object.keys(req.query as Record<string, unknown>).filter((name) => !found.names.has(name));
    if (unknown.length === 0) return next();
    const detail = Object.fromEntries(unknown.map((name) => [name, [`is not a query parameter of ${req.method} ${found.route}`]]));
    return next(new DomainError('validation_error', `Unknown query parameter ${unknown.join(', ')}.`, detail));
  };
}
