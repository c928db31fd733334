import { deliveryApis } from '../domain/delivery-apis/decider.js';
import type { ApiFields, ConnectionFields } from '../domain/delivery-apis/events.js';
import type { CommandBus, Handled } from './command-bus.js';
import { collectionNode } from './collections.js';
import { planLimits, type CommandContext } from './context.js';
import { newKey } from './keys.js';
import { streams } from './streams.js';

type Result = Handled<unknown, unknown>;

export type ApiInput = Omit<ApiFields, 'env' | 'key' | 'created_at'>;
export type ConnectionInput = Omit<ConnectionFields, 'env' | 'api' | 'created_at'>;

export async function createApi(bus: CommandBus, ctx: CommandContext, input: ApiInput): Promise<Result & { key: string }> {
  const limits = await planLimits(bus, ctx.env);
  const key = newKey();
  const handled = await bus.handle(deliveryApis, streams.deliveryApis(ctx.env), {
    type: 'CreateApi',
    data: { ...input, env: ctx.env, key, created_at: ctx.now, quota: limits.delivery_apis },
  }, ctx.metadata);
  return { ...handled, key };
}

export async function connectCollection(bus: CommandBus, ctx: CommandContext, api: string, input: ConnectionInput): Promise<Result> {
  const collectionExists = (await collectionNode(bus, ctx.env, input.folder)) !== null;
  return bus.handle(deliveryApis, streams.deliveryApis(ctx.env), {
    type: 'ConnectCollection',
    data: { ...input, env: ctx.env, api, created_at: ctx.now, collectionExists },
  }, ctx.metadata);
}
