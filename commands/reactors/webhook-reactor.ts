import type { ReadStore } from '../../projections/ports.js';
import { asDomainEvent } from '../../projections/read-model-target.js';
import type { ProjectionTarget } from '../../projections/runner.js';
import { fillDeliveries, INDEXES } from '../../projections/webhook-deliveries.js';
import type { Position, StoredEvent } from '../ports.js';

export const WEBHOOK_REACTOR = 'webhooks';

/**
 * The webhook reactor (docs/decisions/0355): follows `$all` from its own checkpoint and turns each
 * event into pending deliveries, written in one unit of work with the checkpoint. It sends
 * nothing itself: a receiver that is down never holds up the log, the projections or this
 * reactor; the sender drains the table. `filled` is told after a batch added deliveries.
 */
export function webhookReactor(store: ReadStore, filled: () => void): ProjectionTarget & { prepare(): Promise<void> } {
  return {
    name: WEBHOOK_REACTOR,
    async prepare() {
      for (const [collection, indexes] of Object.entries(INDEXES)) for (const fields of indexes) await store.ensureIndex(collection, fields);
    },
    checkpoint: () => store.checkpoint(WEBHOOK_REACTOR),
    async apply(events: readonly StoredEvent[], position: Position) {
      let added = 0;
      await store.unitOfWork(WEBHOOK_REACTOR, position, async (tx) => {
        for (const stored of events) added += await fillDeliveries(tx, asDomainEvent(stored), stored);
      });
      if (added > 0) filled();
    },
  };
}
