import type { ReadStore } from '../../projections/ports.js';
import { asDomainEvent } from '../../projections/read-model-target.js';
import type { ProjectionTarget } from '../../projections/runner.js';
import { fillDeliveries, INDEXES, TABLES } from '../../projections/webhook-deliveries.js';
import { sparseCheckpoints } from './reactor-target.js';
import type { Position, StoredEvent } from '../ports.js';

export const WEBHOOK_REACTOR = 'webhooks';

/**
 * The webhook reactor (docs/decisions/0355): follows `$all` from its own checkpoint and turns each
 * event into pending deliveries, written in one unit of work with the checkpoint. It sends
 * nothing itself: a receiver that is down never holds up the log, the projections or this
 * reactor; the sender drains the table. `filled` is told after a batch added deliveries.
 */
export function webhookReactor(store: ReadStore, filled: () => void): ProjectionTarget & { prepare(): Promise<void> } {
  // While no environment has a webhook, only the webhook events concern the reactor (no unit of work per batch).
  let targets = 0;
  const target: ProjectionTarget & { prepare(): Promise<void> } = {
    name: WEBHOOK_REACTOR,
    async prepare() {
      for (const [collection, indexes] of Object.entries(INDEXES)) for (const fields of indexes) await store.ensureIndex(collection, fields);
      targets = await store.collection(TABLES.targets).count();
    },
    checkpoint: () => store.checkpoint(WEBHOOK_REACTOR),
    // A process that takes the lease over counts the targets again: those another process added meanwhile were not seen here.
    async starting() {
      targets = await store.collection(TABLES.targets).count();
    },
    async apply(events: readonly StoredEvent[], position: Position) {
      let added = 0;
      await store.unitOfWork(WEBHOOK_REACTOR, position, async (tx) => {
        for (const stored of events) added += await fillDeliveries(tx, asDomainEvent(stored), stored);
      });
      if (events.some(isWebhookEvent)) targets = await store.collection(TABLES.targets).count();
      if (added > 0) filled();
    },
  };
  return { ...sparseCheckpoints(store, target, (events) => targets > 0 || events.some(isWebhookEvent)), prepare: target.prepare };
}

const isWebhookEvent = (stored: StoredEvent): boolean => stored.type.startsWith('Webhook');
