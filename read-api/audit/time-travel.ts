import { json, type ApiRequest, type ApiResult } from '../../api/handler.js';
import type { StoredEvent } from '../../commands/ports.js';
import { DomainError, notFound } from '../../domain/errors.js';
import { envelope, pageParams } from '../pagination.js';
import { param, queryEnum } from '../../api/query.js';
import { resourceView } from '../../api/views.js';
import { happenedBy, type AsOf } from './as-of.js';
import type { AuditDeps } from './deps.js';
import { foldResource, isActive, RESOURCE_STREAM_PREFIX, resourceDocOf, type ActiveHistory } from './resource-history.js';

const PAGE = 1000;

export type TimeTravelDeps = Pick<AuditDeps, 'eventStore'>;

/** Parameters a list answers as of a point; the live list's other filters are not computed from the log. */
const LIST_PARAMS = new Set(['as_of', 'limit', 'offset', 'ordering', 'status']);

const belongs = (env: string, folder: string) => (history: ActiveHistory): boolean => history.state.env === env && history.state.folder === folder;

async function historyAsOf(deps: TimeTravelDeps, req: ApiRequest, asOf: AsOf): Promise<ActiveHistory> {
  const key = param(req, 'resource');
  const events = (await deps.eventStore.readStream(`${RESOURCE_STREAM_PREFIX}${key}`)).filter((e) => happenedBy(asOf, e));
  const history = foldResource(events);
  if (!isActive(history) || !belongs(param(req, 'env'), param(req, 'collection'))(history)) throw notFound('resource_not_found', 'Resource');
  return history;
}

/** The resource events of one collection up to the point, by stream, read from the global log. */
async function collectionAsOf(deps: TimeTravelDeps, env: string, folder: string, asOf: AsOf): Promise<ActiveHistory[]> {
  const streams = new Map<string, StoredEvent[]>();
  let after = '';
  for (let page = await deps.eventStore.readAll(after, PAGE); page.length > 0; page = await deps.eventStore.readAll(after, PAGE)) {
    for (const event of page) {
      after = event.position;
      if (asOf.kind === 'position' && event.position > asOf.position) return fold(streams, env, folder);
      if (!event.stream.startsWith(RESOURCE_STREAM_PREFIX) || !happenedBy(asOf, event)) continue;
      const data = event.data as { folder?: unknown };
      if (event.type === 'ResourceCreated' && data.folder !== folder) continue;
      if (event.type !== 'ResourceCreated' && !streams.has(event.stream)) continue;
      streams.set(event.stream, [...(streams.get(event.stream) ?? []), event]);
    }
  }
  return fold(streams, env, folder);
}

const fold = (streams: Map<string, StoredEvent[]>, env: string, folder: string): ActiveHistory[] =>
  [...streams.values()].map(foldResource).filter(isActive).filter(belongs(env, folder));

/**
 * `as_of=` on a collection's resource list, a resource and its data: computed by folding the
 * resource streams up to that point (docs/decisions/0072). Without `as_of` the live read
 * models answer (read-api/resources.ts).
 */
export async function listAsOf(deps: TimeTravelDeps, request: ApiRequest, asOf: AsOf): Promise<ApiResult> {
  const other = Object.keys(request.query).find((name) => !LIST_PARAMS.has(name));
  if (other !== undefined) {
    throw new DomainError('validation_error', `Invalid query parameter ${other}.`, { [other]: [`cannot be combined with as_of (${[...LIST_PARAMS].join(', ')} can)`] });
  }
  const page = pageParams(request.query);
  const ordering = queryEnum(request.query, 'ordering', ['created_at', '-created_at'], 'created_at');
  const status = queryEnum(request.query, 'status', ['published', 'draft', ''], '');
  const docs = (await collectionAsOf(deps, param(request, 'env'), param(request, 'collection'), asOf))
    .map((h) => resourceDocOf(h.state))
    .filter((doc) => status === '' || (status === 'published') === (doc.current_revision !== null))
    .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.key < b.key ? -1 : 1));
  if (ordering === '-created_at') docs.reverse();
  return json(200, envelope(request, page, docs.length, docs.slice(page.offset, page.offset + page.limit).map(resourceView)));
}

export async function resourceAsOf(deps: TimeTravelDeps, request: ApiRequest, asOf: AsOf): Promise<ApiResult> {
  return json(200, resourceView(resourceDocOf((await historyAsOf(deps, request, asOf)).state)));
}

export async function dataAsOf(deps: TimeTravelDeps, request: ApiRequest, asOf: AsOf): Promise<ApiResult> {
  const { state, payloads } = await historyAsOf(deps, request, asOf);
  const data = state.current === null ? undefined : payloads.get(state.current);
  return data === undefined ? { status: 204 } : json(200, data);
}
