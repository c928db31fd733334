import type { Request } from 'express';
import type { ExistingTenancy, TenancyContext } from '../commands/tenancy-context.js';
import { isoNow } from '../commands/time-text.js';
import type { ReadStore } from '../projections/ports.js';
import type { Principal } from '../api/principal.js';
import { organizationAdmin } from '../api/tenancy-access.js';
import { refererHost } from './context.js';

/** An organization administrator's command under `/organizations/{org}/`. */
export function tenancyContext(req: Request, caller: Principal): TenancyContext {
  const principal = organizationAdmin({ params: req.params, principal: caller });
  const now = isoNow();
  return {
    organization: principal.organization,
    now,
    metadata: { actor_type: 'user', actor: principal.actor, ip_address: req.ip ?? null, referer: refererHost(req), timestamp: now },
  };
}

/** Existing projects and environments as the read models know them (to seed quota slots once). */
export const existingTenancy = (store: ReadStore): ExistingTenancy => ({
  projectsOf: async (organization) => (await store.collection('projects').find({ organization })).map((doc) => doc._id),
  environmentsOf: async (project) => (await store.collection('environments').find({ project })).map((doc) => doc._id),
});
