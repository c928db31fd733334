import { apiKeys } from '../domain/api-keys/decider.js';
import { DomainError } from '../domain/errors.js';
import { own } from '../domain/records.js';
import { UNRESTRICTED, type Caller } from '../domain/roles/escalation.js';
import type { CommandBus } from './command-bus.js';
import type { CommandContext } from './context.js';
import { streams } from './streams.js';

/**
 * The caller of a key or role command (docs/decisions/0331): users and the system are
 * unrestricted; an API key holds the role it has now in the event store.
 */
export async function callerOf(bus: CommandBus, ctx: CommandContext): Promise<Caller> {
  const { actor_type, actor } = ctx.metadata;
  if (actor_type !== 'apikey' || !actor || typeof actor.key !== 'string') return UNRESTRICTED;
  const { state } = await bus.load(apiKeys, streams.apiKeys(ctx.env));
  const key = own(state.keys, actor.key);
  // A key deleted since it authenticated holds nothing: no role has the key GONE.
  return { key: actor.key, role: key ? key.role : GONE };
}

const GONE = '\u0000deleted';

/** 403 permission_denied naming the right the caller lacks. */
export const escalationDenied = (missing: string): DomainError =>
  new DomainError('permission_denied', `You cannot grant a right you do not hold: ${missing}.`, { missing_right: missing });

export function refuseEscalation(missing: string | null): void {
  if (missing !== null) throw escalationDenied(missing);
}
