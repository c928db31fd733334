import { get, type ApiRequest, type ApiResult, type ApiRoute } from '../../api/handler.js';
import type { StoredEvent } from '../../commands/ports.js';
import { managementRestriction } from '../event-visibility.js';
import type { Principal } from '../../api/principal.js';
import { adminOnly } from '../../api/tenancy-access.js';
import { param } from '../../api/query.js';
import type { AuditDeps } from './deps.js';
import { environmentOf, ownOrganizationOf, type ReplayFilter } from './replay-filter.js';
import { replayAnswer } from './replay-http.js';
import { replayRequest } from './replay-query.js';
import { runReplay, type Include } from './replay-stream.js';
import { replayVisibility, withoutHashes } from './replay-visibility.js';

/** The replay of the events after the request's point that pass `base`, `include`, as `shown` makes them; a failure mid-stream is logged and ends it. */
function serve(deps: AuditDeps, request: ApiRequest, base: ReplayFilter, include: Include, shown: (event: StoredEvent) => StoredEvent = (e) => e): ApiResult {
  const ask = replayRequest(request.query, request.header('accept'), request.header('last-event-id'), base);
  return replayAnswer(ask.format, shown, async (sink, gone) => {
    try {
      await runReplay(deps.eventStore, ask, include, sink, gone);
    } catch (error) {
      deps.log('replay failed', error);
    }
  });
}

const REFRESH_MS = 5_000;

/**
 * A management key's replay (docs/decisions/0160): the events of entities its role may read
 * (everything, without a role or with full access), its key and role looked up again every few
 * seconds while the replay runs, so a change reaches a long follow too.
 */
function keyInclude(deps: AuditDeps, principal: Principal): Include {
  let checked = -Infinity;
  let visible: (event: StoredEvent) => boolean = () => false;
  return async (event) => {
    if (Date.now() - checked >= REFRESH_MS) {
      const key = await deps.readStore.collection('api_keys').get(String(principal.actor.key));
      const permissions = key ? await managementRestriction(deps.readStore, principal) : [];
      visible = permissions === null ? () => true : replayVisibility(permissions);
      checked = Date.now();
    }
    return visible(event);
  };
}

/**
 * `GET /v1/:env/events/stream/`: the raw events of one environment (docs/decisions/0070):
 * everything for organization administrators; for a management key, what its role may read,
 * without the hashes of secrets and tokens.
 */
export function environmentReplayRoutes(deps: AuditDeps): ApiRoute[] {
  return [get('/events/stream/', async (request) => {
    const { principal } = request;
    const base = { env: param(request, 'env') };
    if (principal.is_admin) return serve(deps, request, base, async () => true);
    if (principal.actor_type !== 'apikey') adminOnly(principal);
    return serve(deps, request, base, keyInclude(deps, principal), withoutHashes);
  })];
}

/** Whether an event belongs to the organization: by its own field, or through its environment. */
function organizationCheck(deps: AuditDeps, organization: string): Include {
  const envs = new Map<string, string | null>();
  return async (event: StoredEvent) => {
    const own = ownOrganizationOf(event);
    if (own !== null) return own === organization;
    const env = environmentOf(event);
    if (env === null) return false;
    if (!envs.has(env)) {
      const doc = await deps.readStore.collection('environments').get(env);
      envs.set(env, typeof doc?.organization === 'string' ? doc.organization : null);
    }
    return envs.get(env) === organization;
  };
}

/** `GET /v1/global-events/stream/`: the raw events of the administrator's organization. */
export function globalReplayRoutes(deps: AuditDeps): ApiRoute[] {
  return [get('/stream/', async (request) => serve(deps, request, {}, organizationCheck(deps, adminOnly(request.principal).organization)))];
}
