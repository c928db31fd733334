import type { Request } from 'express';
import type { CommandContext } from '../commands/context.js';
import { isoNow } from '../commands/time-text.js';
import type { EventMetadata } from '../commands/ports.js';
import type { Principal } from '../api/principal.js';
import { param } from '../api/query.js';

/** Host part only of the Referer header. */
export function refererHost(req: { header(name: string): string | undefined }): string | null {
  const referer = req.header('referer');
  if (!referer) return null;
  try {
    return new URL(referer).host || null;
  } catch {
    return null;
  }
}

/**
 * The caller's address as express's `req.ip` gives it: without `trust proxy` (the apps' setting)
 * that is the socket's address, read here without parsing `X-Forwarded-For` into a list first
 * (docs/decisions/0290).
 */
export function clientIp(req: Request): string | null {
  if (req.app.get('trust proxy') === false) return req.socket.remoteAddress ?? null;
  return req.ip ?? null;
}

export function commandContext(req: Request, principal: Principal): CommandContext {
  const now = isoNow();
  const metadata: EventMetadata = {
    actor_type: principal.actor_type,
    actor: principal.actor,
    ip_address: clientIp(req),
    referer: refererHost(req),
    timestamp: now,
  };
  return { env: param(req, 'env'), metadata, now };
}
