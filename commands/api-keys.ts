import { apiKeys, type KeyKind } from '../domain/api-keys/decider.js';
import type { CommandBus, Handled } from './command-bus.js';
import { planLimits, type CommandContext } from './context.js';
import { newKeyPair, secretHash } from './key-pair.js';
import { newKey } from './keys.js';
import { streams } from './streams.js';

/** Creates a key pair; the secret is returned here once and only its hash is stored. */
export async function createApiKey(
  bus: CommandBus,
  ctx: CommandContext,
  input: { kind: KeyKind; description: string; role: string | null },
): Promise<Handled<unknown, unknown> & { key: string; public_key: string; secret_key: string }> {
  const limits = await planLimits(bus, ctx.env);
  const pair = newKeyPair();
  const key = newKey();
  const handled = await bus.handle(apiKeys, streams.apiKeys(ctx.env), {
    type: 'CreateApiKey',
    data: { ...input, env: ctx.env, key, public_key: pair.public_key, secret_hash: secretHash(pair.secret_key), created_at: ctx.now, quota: limits.api_keys },
  }, ctx.metadata);
  return { ...handled, key, ...pair };
}
