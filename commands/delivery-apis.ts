import { collections } from '../domain/collections/decider.js';
import { strictChain, strictDependents } from '../domain/collections/tree.js';
import { deliveryApis, type CollectionFacts, type DropConnections } from '../domain/delivery-apis/decider.js';
import type { ApiFields, ConnectionFields } from '../domain/delivery-apis/events.js';
import { has } from '../domain/records.js';
import type { CommandBus, Handled } from './command-bus.js';
import { planLimits, type CommandContext } from './context.js';
import { newKey } from './keys.js';
import { streams } from './streams.js';

type Result = Handled<unknown, unknown>;

export type ApiInput = Omit<ApiFields, 'env' | 'key' | 'created_at'>;
export type ConnectionInput = Omit<ConnectionFields, 'env' | 'api' | 'created_at'>;
export type ConnectionChanges = Partial<Omit<ConnectionFields, 'env' | 'api' | 'folder' | 'created_at'>>;

/** What the delivery-API decisions need to know about a collection, from the collection tree's stream. */
async function facts(bus: CommandBus, env: string, folder: string): Promise<CollectionFacts> {
  const { state } = await bus.load(collections, streams.collections(env));
  return { exists: has(state.byKey, folder), strictChain: strictChain(state, folder), strictDependents: strictDependents(state, folder) };
}

const handle = (bus: CommandBus, ctx: CommandContext, command: Parameters<typeof deliveryApis.decide>[0]): Promise<Result> =>
  bus.handle(deliveryApis, streams.deliveryApis(ctx.env), command, ctx.metadata);

export async function createApi(bus: CommandBus, ctx: CommandContext, input: ApiInput): Promise<Result & { key: string }> {
  const limits = await planLimits(bus, ctx.env);
  const key = newKey();
  const handled = await handle(bus, ctx, { type: 'CreateApi', data: { ...input, env: ctx.env, key, created_at: ctx.now, quota: limits.delivery_apis } });
  return { ...handled, key };
}

export const updateApi = (bus: CommandBus, ctx: CommandContext, key: string, changes: Partial<ApiInput>): Promise<Result> =>
  handle(bus, ctx, { type: 'UpdateApi', data: { env: ctx.env, key, changes } });

export const deleteApi = (bus: CommandBus, ctx: CommandContext, key: string): Promise<Result> =>
  handle(bus, ctx, { type: 'DeleteApi', data: { env: ctx.env, key } });

export async function connectCollection(bus: CommandBus, ctx: CommandContext, api: string, input: ConnectionInput): Promise<Result> {
  const collection = await facts(bus, ctx.env, input.folder);
  const connected = await handle(bus, ctx, { type: 'ConnectCollection', data: { ...input, env: ctx.env, api, created_at: ctx.now, collection } });
  // A collection deleted since the facts were read: its delete's sweep may have run before this append.
  await dropDeletedConnections(bus, ctx);
  return connected;
}

/**
 * Ends the connections to collections that are no longer in the collection tree. Run after a
 * collection delete and after a connect: whichever of the two appends last sees the other.
 */
export function dropDeletedConnections(bus: CommandBus, ctx: CommandContext): Promise<Result> {
  return bus.handle(deliveryApis, streams.deliveryApis(ctx.env), async (state): Promise<DropConnections> => {
    const { state: tree } = await bus.load(collections, streams.collections(ctx.env));
    const folders = new Set(Object.values(state.apis).flatMap((api) => Object.keys(api.connections)).filter((folder) => !has(tree.byKey, folder)));
    return { type: 'DropConnections', data: { env: ctx.env, folders: [...folders] } };
  }, ctx.metadata);
}

export async function updateConnection(bus: CommandBus, ctx: CommandContext, api: string, folder: string, changes: ConnectionChanges): Promise<Result> {
  const collection = await facts(bus, ctx.env, folder);
  return handle(bus, ctx, { type: 'UpdateConnection', data: { env: ctx.env, api, folder, changes, collection } });
}

export async function disconnectCollection(bus: CommandBus, ctx: CommandContext, api: string, folder: string): Promise<Result> {
  const collection = await facts(bus, ctx.env, folder);
  return handle(bus, ctx, { type: 'DisconnectCollection', data: { env: ctx.env, api, folder, collection } });
}
