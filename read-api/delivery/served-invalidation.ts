import type { StoredEvent } from '../../commands/ports.js';
import { deliveryChanges } from '../../projections/delivery-index.js';
import { removedFolders } from '../../projections/delivery-removals.js';
import { asDomainEvent } from '../../projections/read-model-target.js';
import type { ServedCache } from './served-cache.js';

/** The dependency every remembered list of an environment has: any document change there may change any list (filters join other collections). */
export const listsOf = (env: string): string => `lists ${env}`;

/**
 * Evicts the remembered answers a projected delivery batch changed: each changed document
 * (its get-one and every answer that populated it), a deleted collection, and the
 * environment's lists. Runs after the batch is committed, before writers waiting on it answer.
 */
export function evictChanged(cache: ServedCache, batch: readonly StoredEvent[]): void {
  for (const stored of batch) {
    const event = asDomainEvent(stored);
    for (const { env, folder } of removedFolders(event)) {
      cache.evict(folder);
      cache.evict(listsOf(env));
    }
    for (const { env, key } of deliveryChanges(event)) {
      cache.evict(key);
      cache.evict(listsOf(env));
    }
  }
}
