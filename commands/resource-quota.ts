import { resourceQuota, type ReserveResourceSlot } from '../domain/resource-quota/decider.js';
import type { CommandBus } from './command-bus.js';
import type { CommandContext } from './context.js';
import { streams } from './streams.js';

/**
 * The operator-set resource limit per environment (RESOURCE_LIMIT, docs/decisions/0031), or
 * null when none is set: then nothing is counted and no slot stream is written.
 */
export type ResourceQuota = {
  readonly limit: number;
  /** The resources an environment holds (read model), to seed an empty count once. */
  readonly existing: (env: string) => Promise<ReserveResourceSlot['data']['existing']>;
} | null;

/** Releases the slot of a deleted resource (a no-op for a key that holds none). */
export async function releaseSlot(bus: CommandBus, quota: ResourceQuota, ctx: CommandContext, folder: string, key: string): Promise<void> {
  if (quota === null) return;
  await bus.handle(resourceQuota, streams.resourceQuota(ctx.env), { type: 'ReleaseResourceSlot', data: { env: ctx.env, folder, key } }, ctx.metadata);
}

/** Releases the slots of the resources of deleted collections. */
export async function releaseCollectionSlots(bus: CommandBus, quota: ResourceQuota, ctx: CommandContext, folders: readonly string[]) {
  if (quota === null || folders.length === 0) return null;
  return bus.handle(resourceQuota, streams.resourceQuota(ctx.env), { type: 'ReleaseCollectionSlots', data: { env: ctx.env, folders } }, ctx.metadata);
}
