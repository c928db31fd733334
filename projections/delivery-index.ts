import type { Position, StoredEvent } from '../commands/ports.js';
import type { DomainEvent } from '../domain/events.js';
import { BatchDelivery } from './batch-delivery.js';
import type { Embedder } from './embedder.js';
import type { DeliveryDoc, SearchIndex } from './ports.js';
import { removedFolders } from './delivery-removals.js';
import { asDomainEvent } from './read-model-target.js';
import type { ProjectionTarget } from './runner.js';
import { applySearchStep } from './search-step.js';

/** One delivery document an event changes; `apply` returns the new document, or null to remove it. */
export type DeliveryChange = {
  readonly env: string;
  readonly folder: string;
  readonly key: string;
  readonly apply: (current: DeliveryDoc | null) => DeliveryDoc | null;
};

/** The published-only delivery model: what the delivery interface serves. */
export function deliveryChanges(event: DomainEvent): readonly DeliveryChange[] {
  switch (event.type) {
    case 'ResourceCreated': {
      const { env, folder, key, created_at, resource_owner } = event.data;
      return [{ env, folder, key, apply: (current) => current ?? { env, folder, key, created_at, updated_at: created_at, owner: resource_owner, data: null } }];
    }
    case 'RevisionCreated': {
      const { env, folder, resource, status, data, published_at } = event.data;
      if (status !== 'published') return [];
      return [
        {
          env,
          folder,
          key: resource,
          apply: (current) => (current ? { ...current, data, updated_at: published_at ?? current.updated_at } : null),
        },
      ];
    }
    case 'RevisionPublished': {
      const { env, folder, resource, data, published_at } = event.data;
      return [{ env, folder, key: resource, apply: (current) => (current ? { ...current, data, updated_at: published_at } : null) }];
    }
    case 'RevisionUnpublished': {
      const { env, folder, resource, unpublished_at } = event.data;
      return [{ env, folder, key: resource, apply: (current) => (current ? { ...current, data: null, updated_at: unpublished_at } : null) }];
    }
    case 'ResourceDeleted': {
      const { env, folder, key } = event.data;
      // Removing the document removes its stored vectors with it.
      return [{ env, folder, key, apply: () => null }];
    }
    default:
      return [];
  }
}

/**
 * The delivery index's consumer name. Renamed when search entries joined the documents
 * (docs/decisions/0051): a data directory of the earlier shape replays the log once and
 * indexes what it had published.
 */
export const DELIVERY_CONSUMER = 'delivery-index-search';

export function deliveryTarget(index: SearchIndex, embedder: Embedder): ProjectionTarget {
  const name = DELIVERY_CONSUMER;
  return {
    name,
    checkpoint: () => index.checkpoint(name),
    async apply(events: readonly StoredEvent[], position: Position) {
      await index.unitOfWork(name, position, async (indexTx) => {
        // Each document read and written once per batch (docs/decisions/0194).
        const tx = new BatchDelivery(indexTx);
        for (const stored of events) {
          const event = asDomainEvent(stored);
          for (const { env, folder } of removedFolders(event)) await tx.removeFolder(env, folder);
          for (const change of deliveryChanges(event)) {
            const current = await tx.get(change.env, change.folder, change.key);
            const next = change.apply(current);
            if (next === null) await tx.remove(change.env, change.folder, change.key);
            else await tx.index(next);
          }
          await applySearchStep(tx, event, embedder);
        }
        await tx.flush();
      });
    },
  };
}
