import type { Request, Response } from 'express';
import type { CommandContext } from '../commands/context.js';
import type { EventMetadata } from '../commands/ports.js';
import { principalOf } from '../read-api/principal.js';
import { param } from '../read-api/query.js';

/** Host part only of the Referer header. */
export function refererHost(req: Request): string | null {
  const referer = req.get('referer');
  if (!referer) return null;
  try {
    return new URL(referer).host || null;
  } catch {
    return null;
  }
}

export function commandContext(req: Request, res: Response): CommandContext {
  const principal = principalOf(res);
  const now = new Date().toISOString();
  const metadata: EventMetadata = {
    actor_type: principal.actor_type,
    actor: principal.actor,
    ip_address: req.ip ?? null,
    referer: refererHost(req),
    timestamp: now,
  };
  return { env: param(req, 'env'), metadata, now };
}
