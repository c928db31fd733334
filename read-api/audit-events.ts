import { Router, type Request } from 'express';
import { principalOf } from '../api/principal.js';
import { DomainError } from '../domain/errors.js';
import type { Filter } from '../projections/ports.js';
import type { ReadDeps } from './deps.js';
import { visibleEventsFilter } from './event-visibility.js';
import { envelope, pageParams } from './pagination.js';
import { queryDatetime, queryEnum, queryString, param } from '../api/query.js';
import { auditView } from '../api/views.js';
import { ENV_ENTITIES, EVENT_TYPES } from '../api/event-types.js';

const GLOBAL_ENTITIES = ['user', 'customer', 'project', 'environment'] as const;

/** Exact-match and relation filters shared by both lists, plus the timestamp range. */
function filterFor(req: Request, base: Filter, entities: readonly string[], exact: readonly string[]): Filter {
  const q = req.query;
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

const list = async (deps: ReadDeps, req: Request, filter: Filter) => {
  const page = pageParams(req.query);
  const ordering = queryEnum(req.query, 'ordering', ['timestamp', '-timestamp'], '-timestamp');
  const direction = ordering === 'timestamp' ? 1 : -1;
  const events = deps.readStore.collection('audit_events');
  const [count, docs] = await Promise.all([
    events.count(filter),
    events.find(filter, { sort: [['_position', direction]], skip: page.offset, limit: page.limit }),
  ]);
  return envelope(req, page, count, docs.map(auditView));
};

/** Organization (global) events, newest first by default; organization admins only. */
export function globalEventsReadRouter(deps: ReadDeps): Router {
  const router = Router();
  router.get('/', async (req, res) => {
    const principal = principalOf(res);
    if (!principal.is_admin) throw new DomainError('permission_denied', 'Organization admin access is required.');
    const filter = filterFor(req, { scope: 'global', organization: principal.organization }, GLOBAL_ENTITIES, [
      'entity_key', 'referer', 'actor_key', 'ip_address', 'project_key',
    ]);
    res.json(await list(deps, req, filter));
  });
  return router;
}

/** Environment events, newest first by default; a key with a role sees only the events of entities it may read. */
export function auditEventsReadRouter(deps: ReadDeps): Router {
  const router = Router({ mergeParams: true });
  router.get('/events/', async (req, res) => {
    const actorType = queryString(req.query, 'actor_type');
    if (queryString(req.query, 'actor_key') !== undefined && actorType === undefined) {
      throw new DomainError('validation_error', 'actor_key requires actor_type.', { actor_key: ['requires actor_type'] });
    }
    if (actorType !== undefined) queryEnum(req.query, 'actor_type', ['user', 'apikey'], 'user');
    const filter = filterFor(req, { scope: 'environment', env: param(req, 'env') }, ENV_ENTITIES, [
      'entity_key', 'referer', 'ip_address', 'actor_type', 'actor_key', 'collection_key', 'resource_key', 'schema_key', 'api_key',
    ]);
    const visible = await visibleEventsFilter(deps.readStore, principalOf(res));
    res.json(await list(deps, req, visible === null ? filter : { $and: [filter, visible] }));
  });
  return router;
}
