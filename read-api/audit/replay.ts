import { Router, type Request, type Response } from 'express';
import type { StoredEvent } from '../../commands/ports.js';
import { DomainError } from '../../domain/errors.js';
import { managementRestriction } from '../event-visibility.js';
import { principalOf, type Principal } from '../../api/principal.js';
import { param } from '../../api/query.js';
import type { AuditDeps } from './deps.js';
import { environmentOf, ownOrganizationOf, type ReplayFilter } from './replay-filter.js';
import { openReplay } from './replay-http.js';
import { replayRequest } from './replay-query.js';
import { runReplay, type Include } from './replay-stream.js';
import { replayVisibility, withoutHashes } from './replay-visibility.js';

const adminOnly = (res: Response): void => {
  if (!principalOf(res).is_admin) throw new DomainError('permission_denied', 'Organization admin access is required.');
};

async function serve(deps: AuditDeps, req: Request, res: Response, base: ReplayFilter, include: Include, shown: (event: StoredEvent) => StoredEvent = (e) => e): Promise<void> {
  const request = replayRequest(req.query as Record<string, unknown>, req.get('accept'), req.get('last-event-id'), base);
  const { sink, closed, end } = openReplay(req, res, request.format);
  const send = {
    get closed() {
      return sink.closed;
    },
    send: (event: StoredEvent) => sink.send(shown(event)),
  };
  try {
    await runReplay(deps.eventStore, request, include, send, closed);
  } catch (error) {
    deps.log('replay failed', error);
  } finally {
    end();
  }
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
export function environmentReplayRouter(deps: AuditDeps): Router {
  const router = Router({ mergeParams: true });
  router.get('/events/stream/', async (req, res) => {
    const principal = principalOf(res);
    if (principal.is_admin) return serve(deps, req, res, { env: param(req, 'env') }, async () => true);
    if (principal.actor_type !== 'apikey') adminOnly(res);
    await serve(deps, req, res, { env: param(req, 'env') }, keyInclude(deps, principal), withoutHashes);
  });
  return router;
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
export function globalReplayRouter(deps: AuditDeps): Router {
  const router = Router();
  router.get('/stream/', async (req, res) => {
    adminOnly(res);
    await serve(deps, req, res, {}, organizationCheck(deps, principalOf(res).organization));
  });
  return router;
}
