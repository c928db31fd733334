import type { Request } from 'express';
import type { CommandContext } from '../../commands/context.js';
import type { TenancyContext } from '../../commands/tenancy-context.js';
import { isoNow } from '../../commands/time-text.js';
import type { Principal } from '../../api/principal.js';
import { param } from '../../api/query.js';
import { refererHost } from '../../api/referer.js';
import { organizationAdmin } from '../../api/tenancy-access.js';

/** Who writes, from where and when, for a command inside the environment of `req`'s path. */
export function commandContext(req: Request, principal: Principal): CommandContext {
  const now = isoNow();
  return {
    env: param(req, 'env'),
    now,
    metadata: { actor_type: principal.actor_type, actor: principal.actor, ip_address: req.ip ?? null, referer: refererHost(req), timestamp: now },
  };
}

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
