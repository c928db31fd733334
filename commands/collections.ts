import { collections } from '../domain/collections/decider.js';
import type { CollectionChanges } from '../domain/collections/update.js';
import { own } from '../domain/records.js';
import type { CommandBus, Handled } from './command-bus.js';
import { planLimits, type CommandContext } from './context.js';
import { newKey } from './keys.js';
import { streams } from './streams.js';

export type CollectionInput = {
  readonly name: string;
  readonly alias: string;
  readonly parent: string | null;
  readonly strict_reference: boolean;
  readonly auto_remove_revisions: number | null;
  readonly auto_remove_schema_versions: number | null;
  readonly embedding_model?: string | null;
  readonly embedding_dimension?: number | null;
};

export async function createCollection(bus: CommandBus, ctx: CommandContext, input: CollectionInput): Promise<Handled<unknown, unknown> & { key: string }> {
  const limits = await planLimits(bus, ctx.env);
  const key = newKey();
  const handled = await bus.handle(collections, streams.collections(ctx.env), {
    type: 'CreateCollection',
    data: { ...input, env: ctx.env, key, created_at: ctx.now, quota: limits.collections },
  }, ctx.metadata);
  return { ...handled, key };
}

/** Renames, re-aliases, moves or re-configures a collection. */
export function updateCollection(bus: CommandBus, ctx: CommandContext, key: string, changes: CollectionChanges): Promise<Handled<unknown, unknown>> {
  return bus.handle(collections, streams.collections(ctx.env), { type: 'UpdateCollection', data: { env: ctx.env, key, changes } }, ctx.metadata);
}

/**
 * Deletes a collection with its subtree. What that leaves on other streams (resource slots,
 * delivery connections) is released by the cascade reactor (commands/reactors/, decision 0083).
 */
export function deleteCollection(bus: CommandBus, ctx: CommandContext, key: string): Promise<Handled<unknown, unknown>> {
  return bus.handle(collections, streams.collections(ctx.env), { type: 'DeleteCollection', data: { env: ctx.env, key } }, ctx.metadata);
}

/** Whether a collection exists in an environment, from its owning stream. */
export async function collectionNode(bus: CommandBus, env: string, key: string) {
  const { state } = await bus.load(collections, streams.collections(env));
  return own(state.byKey, key) ?? null;
}
