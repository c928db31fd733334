import { hostname } from 'node:os';
import type { EventStore, StoredEvent } from '../commands/ports.js';
import { CheckpointWatcher } from '../projections/checkpoint-watcher.js';
import { holderId, type Leases } from '../projections/lease.js';
import { LeasedProjection } from '../projections/leased-projection.js';
import { ProjectionRunner, type Consumer, type ProjectionTarget } from '../projections/runner.js';

/** One projection or reactor as the composition root declares it, whatever the role. */
export type ConsumerSpec = {
  readonly target: ProjectionTarget;
  /** Raises its checkpoint's epoch in the store that holds it (docs/decisions/0386). */
  readonly fence?: (consumer: string, epoch: number) => Promise<void>;
  /** The in-process caches its batches change: run after each batch, here or (watched) after the store holds it. */
  readonly afterBatch?: (batch: readonly StoredEvent[]) => Promise<void>;
  /** The hook reads no event of the batch: a watcher calls it without reading them from the log. */
  readonly afterBatchWithoutEvents?: boolean;
  readonly turnLater?: boolean;
  /** While this process holds the lease (the webhook sender, the scheduler's timer). */
  readonly onHeld?: () => void;
  readonly onLost?: () => Promise<void>;
  /** A reactor that issues commands (its watcher bounds what it appended by the log's head). */
  readonly reactor?: boolean;
};

export type Built = { readonly consumer: Consumer; readonly runner: ProjectionRunner | null; readonly slot: LeasedProjection | null };

/**
 * Builds each consumer for the process's role (docs/decisions/0388): where projections run (ROLE
 * all, worker) a leased slot, runner and watcher; elsewhere (api, delivery) a watcher of the
 * checkpoint only, which keeps the caches and `wait=true` going without applying anything.
 */
export function consumerBuilder(deps: {
  readonly eventStore: EventStore;
  readonly leases: Leases | null;
  readonly log: (message: string, error?: unknown) => void;
}): (spec: ConsumerSpec) => Built {
  const holder = holderId(hostname(), process.pid);
  return (spec) => {
    const { target } = spec;
    const watcher = new CheckpointWatcher(deps.eventStore, target.name, () => target.checkpoint(), { afterBatch: spec.afterBatch, withoutEvents: spec.afterBatchWithoutEvents, log: deps.log, reactor: spec.reactor });
    if (deps.leases === null) return { consumer: watcher, runner: null, slot: null };
    const runner = new ProjectionRunner(deps.eventStore, target, { log: deps.log, afterBatch: spec.afterBatch, turnLater: spec.turnLater, onFenced: () => slot.fenced() });
    const fence = spec.fence;
    const slot: LeasedProjection = new LeasedProjection(runner, watcher, {
      leases: deps.leases,
      holder,
      fence: fence ? (epoch) => fence(target.name, epoch) : undefined,
      onHeld: spec.onHeld,
      onLost: spec.onLost,
      log: deps.log,
    });
    return { consumer: slot, runner, slot };
  };
}
