import { get, type ApiRequest, type ApiRoute } from '../api/handler.js';
import { adminOnly } from '../api/tenancy-access.js';
import { DomainError } from '../domain/errors.js';
import type { Filter } from '../projections/ports.js';
import type { ReadDeps } from './deps.js';
import { visibleEventsFilter } from './event-visibility.js';
import { listPage } from './pagination.js';
import { queryDatetime, queryEnum, queryString, param } from '../api/query.js';
import { auditView } from '../api/views.js';
import { ENV_ENTITIES, EVENT_TYPES } from '../api/event-types.js';

const GLOBAL_ENTITIES = ['user', 'customer', 'project', 'environment'] as const;

/** Exact-match and relation filters shared by both lists, plus the timestamp range. */
function filterFor(request: ApiRequest, base: Filter, entities: readonly string[], exact: readonly string[]): Filter {
  const q = request.query;
  const and: Filter[] = [base];
  const eventType = queryString(q, 'event_type');
  if (eventType !== undefined) and.push({ event_type: queryEnum(q, 'event_type', EVENT_TYPES, 'create') });
  const entityType = queryString(q, 'entity_type');
  if (entityType !== undefined) and.push({ entity_type: queryEnum(q, 'entity_type', entities as readonly string[], entityType) });
  for (const name of exact) {
    const value = queryString(q, name);
    if (value !== undefined) and.push({ [name]: value });
  }
  const from = queryDatetime(q, 'from_timestamp');
  if (from !== undefined) and.push({ timestamp: { $gte: from } });
  const to = queryDatetime(q, 'to_timestamp');
  if (to !== undefined) and.push({ timestamp: { $lte: to } });
  return { $and: and };
}

const list = (deps: ReadDeps, request: ApiRequest, filter: Filter) => {
  const ordering = queryEnum(request.query, 'ordering', ['timestamp', '-timestamp'], '-timestamp');
  return listPage(request, deps.readStore.collection('audit_events'), filter, [['_position', ordering === 'timestamp' ? 1 : -1]], auditView);
};

/** Organization (global) events, newest first by default; organization admins only. */
export function globalEventsReadRoutes(deps: ReadDeps): ApiRoute[] {
  return [get('/', async (request) => {
    const { organization } = adminOnly(request.principal);
    const filter = filterFor(request, { scope: 'global', organization }, GLOBAL_ENTITIES, [
      'entity_key', 'referer', 'actor_key', 'ip_address', 'project_key',
    ]);
    return list(deps, request, filter);
  })];
}

/** Environment events, newest first by default; a key with a role sees only the events of entities it may read. */
export function auditEventsReadRoutes(deps: ReadDeps): ApiRoute[] {
  return [get('/events/', async (request) => {
    const actorType = queryString(request.query, 'actor_type');
    if (queryString(request.query, 'actor_key') !== undefined && actorType === undefined) {
      throw new DomainError('validation_error', 'actor_key requires actor_type.', { actor_key: ['requires actor_type'] });
    }
    if (actorType !== undefined) queryEnum(request.query, 'actor_type', ['user', 'apikey'], 'user');
    const filter = filterFor(request, { scope: 'environment', env: param(request, 'env') }, ENV_ENTITIES, [
      'entity_key', 'referer', 'ip_address', 'actor_type', 'actor_key', 'collection_key', 'resource_key', 'schema_key', 'api_key',
    ]);
    const visible = await visibleEventsFilter(deps.readStore, request.principal);
    return list(deps, request, visible === null ? filter : { $and: [filter, visible] });
  })];
}
