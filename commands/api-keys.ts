import { createHash, randomBytes } from 'node:crypto';
import { apiKeys, type ApiKeysCommand, type ApiKeysState, type KeyKind, type KeyState } from '../domain/api-keys/decider.js';
import { notFound } from '../domain/errors.js';
import { own } from '../domain/records.js';
import { roles, type RolesState } from '../domain/roles/decider.js';
import { bindingRefusal } from '../domain/roles/escalation.js';
import type { CommandBus, Handled } from './command-bus.js';
import { planLimits, type CommandContext } from './context.js';
import { callerOf, refuseEscalation } from './escalation.js';
import { newKeyPair, secretHash } from './key-pair.js';
import { newKey } from './keys.js';
import { streams } from './streams.js';

type Result = Handled<unknown, unknown>;

/** Whether `role` is a role of this kind in the environment (null: no role, nothing to find). */
function roleFound(state: RolesState, kind: KeyKind, role: string | null | undefined): boolean {
  if (role === null || role === undefined) return false;
  return own(state.roles, role)?.kind === kind;
}

const rolesOf = async (bus: CommandBus, env: string): Promise<RolesState> => (await bus.load(roles, streams.roles(env))).state;

/** The key of `kind` named `key`, or a 404. */
function keyIn(state: ApiKeysState, kind: KeyKind, key: string): KeyState {
  const found = own(state.keys, key);
  if (!found || found.kind !== kind) throw notFound('not_found', 'API key');
  return found;
}

/** Creates a key pair; the secret is returned here once and only its hash is stored. */
export async function createApiKey(
  bus: CommandBus,
  ctx: CommandContext,
  input: { kind: KeyKind; description: string; role: string | null; spend_cap_usd?: number | null },
): Promise<Result & { key: string; public_key: string; secret_key: string }> {
  const limits = await planLimits(bus, ctx.env);
  const pair = newKeyPair();
  const key = newKey();
  const [caller, state] = [await callerOf(bus, ctx), await rolesOf(bus, ctx.env)];
  const found = roleFound(state, input.kind, input.role);
  refuseEscalation(bindingRefusal(caller, state, { kind: input.kind, target: null, role: input.role }));
  const handled = await bus.handle(apiKeys, streams.apiKeys(ctx.env), {
    type: 'CreateApiKey',
    data: { ...input, spend_cap_usd: input.spend_cap_usd ?? null, env: ctx.env, key, public_key: pair.public_key, secret_hash: secretHash(pair.secret_key), created_at: ctx.now, quota: limits.api_keys, roleFound: found },
  }, ctx.metadata);
  return { ...handled, key, ...pair };
}

/** A change of role passes the escalation check: no key changes its own, nor binds one to a role it does not hold (docs/decisions/0331). */
export async function updateApiKey(bus: CommandBus, ctx: CommandContext, kind: KeyKind, key: string, changes: { description?: string; role?: string | null; spend_cap_usd?: number | null }): Promise<Result> {
  const [caller, state] = [await callerOf(bus, ctx), await rolesOf(bus, ctx.env)];
  const found = roleFound(state, kind, changes.role);
  return bus.handle(apiKeys, streams.apiKeys(ctx.env), async (keys): Promise<ApiKeysCommand> => {
    const { role } = changes;
    if (role !== undefined) refuseEscalation(bindingRefusal(caller, state, { kind, target: key, current: keyIn(keys, kind, key).role, role }));
    return { type: 'UpdateApiKey', data: { ...changes, env: ctx.env, kind, key, roleFound: found } };
  }, ctx.metadata);
}

export const deleteApiKey = (bus: CommandBus, ctx: CommandContext, kind: KeyKind, key: string): Promise<Result> =>
  bus.handle(apiKeys, streams.apiKeys(ctx.env), { type: 'DeleteApiKey', data: { env: ctx.env, kind, key } }, ctx.metadata);

/** The literal prefix of delivery bearer tokens: a bearer credential without it is refused. */
export const BEARER_PREFIX = 'dlv_';
/** How many leading characters of a token reads show. */
export const TOKEN_PREFIX_LENGTH = 12;

export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Issues (or re-issues, replacing the previous one) the bearer token of a delivery key; the plaintext is returned once. */
/** A token acts as its key: issuing one passes the escalation check as a binding to the key's role does (docs/decisions/0331). */
export async function issueBearerToken(bus: CommandBus, ctx: CommandContext, key: string): Promise<Result & { token: string }> {
  const token = `${BEARER_PREFIX}${randomBytes(32).toString('base64url')}`;
  const [caller, state] = [await callerOf(bus, ctx), await rolesOf(bus, ctx.env)];
  const handled = await bus.handle(apiKeys, streams.apiKeys(ctx.env), async (keys): Promise<ApiKeysCommand> => {
    refuseEscalation(bindingRefusal(caller, state, { kind: 'delivery', target: key, role: keyIn(keys, 'delivery', key).role }));
    return {
      type: 'IssueBearerToken',
      data: { env: ctx.env, kind: 'delivery', key, token_hash: tokenHash(token), token_prefix: token.slice(0, TOKEN_PREFIX_LENGTH), issued_at: ctx.now },
    };
  }, ctx.metadata);
  return { ...handled, token };
}

export const revokeBearerToken = (bus: CommandBus, ctx: CommandContext, key: string): Promise<Result> =>
  bus.handle(apiKeys, streams.apiKeys(ctx.env), { type: 'RevokeBearerToken', data: { env: ctx.env, kind: 'delivery', key } }, ctx.metadata);
