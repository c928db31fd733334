import type { ReadStore } from '../../projections/ports.js';
import type { CommandBus } from '../command-bus.js';
import type { CommandContext } from '../context.js';
import type { Position, StoredEvent } from '../ports.js';
import type { ResourceQuota } from '../resource-quota.js';
import { afterCollectionsDeleted, deleteDescendants } from './cascades.js';
import type { Reaction } from './reactor-target.js';

/** How long a reaction waits for the read model to have the event it reacts to. */
const READ_MODEL_WAIT_MS = 60_000;

export type CascadeDeps = {
  readonly bus: CommandBus;
  readonly readStore: ReadStore;
  readonly quota: ResourceQuota;
  /** The read-model projection the children are looked up in. */
  readonly readModels: { waitFor(position: Position, timeoutMs: number): Promise<boolean> };
};

/**
 * The cascades of a delete: a deleted collection releases its resource slots and loses its
 * delivery connections; a deleted resource takes its strict-reference descendants with it. The
 * commands carry the metadata and time of the delete that started them.
 */
export function cascadeReaction(deps: CascadeDeps): Reaction {
  return async (stored: StoredEvent): Promise<Position | null> => {
    if (stored.type !== 'CollectionDeleted' && stored.type !== 'ResourceDeleted') return null;
    const data = stored.data as { env: string; key: string };
    const ctx: CommandContext = { env: data.env, metadata: stored.metadata, now: stored.metadata.timestamp };
    if (stored.type === 'CollectionDeleted') return afterCollectionsDeleted(deps.bus, deps.quota, ctx, [data.key]);
    if (!(await deps.readModels.waitFor(stored.position, READ_MODEL_WAIT_MS))) {
      throw new Error(`the read models have not reached ${stored.position}: cannot look up the children of ${data.key}`);
    }
    return deleteDescendants(deps.bus, deps.readStore.collection('resources'), deps.quota, ctx, data.key);
  };
}
