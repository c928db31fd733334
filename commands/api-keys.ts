import { createHash, randomBytes } from 'node:crypto';
import { apiKeys, type KeyKind } from '../domain/api-keys/decider.js';
import { roles } from '../domain/roles/decider.js';
import { own } from '../domain/records.js';
import type { CommandBus, Handled } from './command-bus.js';
import { planLimits, type CommandContext } from './context.js';
import { newKeyPair, secretHash } from './key-pair.js';
import { newKey } from './keys.js';
import { streams } from './streams.js';

type Result = Handled<unknown, unknown>;

/** Whether `role` is a role of this kind in the environment (null: no role, nothing to find). */
async function roleFound(bus: CommandBus, env: string, kind: KeyKind, role: string | null | undefined): Promise<boolean> {
  if (role === null || role === undefined) return false;
  const { state } = await bus.load(roles, streams.roles(env));
  return own(state.roles, role)?.kind === kind;
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
  const found = await roleFound(bus, ctx.env, input.kind, input.role);
  const handled = await bus.handle(apiKeys, streams.apiKeys(ctx.env), {
    type: 'CreateApiKey',
    data: { ...input, spend_cap_usd: input.spend_cap_usd ?? null, env: ctx.env, key, public_key: pair.public_key, secret_hash: secretHash(pair.secret_key), created_at: ctx.now, quota: limits.api_keys, roleFound: found },
  }, ctx.metadata);
  return { ...handled, key, ...pair };
}

export async function updateApiKey(bus: CommandBus, ctx: CommandContext, kind: KeyKind, key: string, changes: { description?: string; role?: string | null; spend_cap_usd?: number | null }): Promise<Result> {
  const found = await roleFound(bus, ctx.env, kind, changes.role);
  return bus.handle(apiKeys, streams.apiKeys(ctx.env), { type: 'UpdateApiKey', data: { ...changes, env: ctx.env, kind, key, roleFound: found } }, ctx.metadata);
}

export const deleteApiKey = (bus: CommandBus, ctx: CommandContext, kind: KeyKind, key: string): Promise<Result> =>
  bus.handle(apiKeys, streams.apiKeys(ctx.env), { type: 'DeleteApiKey', data: { env: ctx.env, kind, key } }, ctx.metadata);

/** The literal prefix of delivery bearer tokens: a bearer credential without it is refused. */
export const BEARER_PREFIX = 'dlv_';
/** How many leading characters of a token reads show. */
export const TOKEN_PREFIX_LENGTH = 12;

export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Issues (or re-issues, replacing the previous one) the bearer token of a delivery key; the plaintext is returned once. */
export async function issueBearerToken(bus: CommandBus, ctx: CommandContext, key: string): Promise<Result & { token: string }> {
  const token = `${BEARER_PREFIX}${randomBytes(32).toString('base64url')}`;
  const handled = await bus.handle(apiKeys, streams.apiKeys(ctx.env), {
    type: 'IssueBearerToken',
    data: { env: ctx.env, kind: 'delivery', key, token_hash: tokenHash(token), token_prefix: token.slice(0, TOKEN_PREFIX_LENGTH), issued_at: ctx.now },
  }, ctx.metadata);
  return { ...handled, token };
}

export const revokeBearerToken = (bus: CommandBus, ctx: CommandContext, key: string): Promise<Result> =>
  bus.handle(apiKeys, streams.apiKeys(ctx.env), { type: 'RevokeBearerToken', data: { env: ctx.env, kind: 'delivery', key } }, ctx.metadata);
