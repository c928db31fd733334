import type { Position } from '../../commands/ports.js';
import { deliveryTarget } from '../../projections/delivery-index.js';
import { replayInto } from '../../projections/rebuild.js';
import type { Config } from '../config.js';
import { createEmbedder } from '../embeddings/create.js';
import { bulkLoadDelivery } from '../sqlite/delivery-bulk-load.js';
import { SqliteSearchIndex } from '../sqlite/search-index.js';
import { BufferedSearchIndex } from './buffered-search-index.js';
import { openEventLog } from './event-log.js';

/** `finishedAt`: the wall-clock time it was written, in milliseconds since the epoch (threads have their own performance clocks). */
export type DeliveryRebuild = { readonly events: number; readonly position: Position; readonly finishedAt: number };

/**
 * Rebuilds the delivery index from the first event into `building`, a file nobody else has
 * open (docs/decisions/0073, 0141): the projection runs against a buffer of the whole index,
 * which is then bulk-loaded, with the search entries and the projection's metadata written
 * through the loaded index after it. It stops at the head it saw; the service that adopts the
 * file catches up from its checkpoint.
 */
export async function rebuildDeliveryInto(config: Config, building: string): Promise<DeliveryRebuild> {
  const eventStore = await openEventLog(config);
  const index = new SqliteSearchIndex(building);
  try {
    const delivery = new BufferedSearchIndex(index, async (docs, positions) => {
      await index.close();
      bulkLoadDelivery(building, docs, positions);
      return new SqliteSearchIndex(building);
    });
    const { events, position } = await replayInto(eventStore, [deliveryTarget(delivery, createEmbedder(config.embeddings))], '');
    await delivery.flush();
    return { events, position, finishedAt: performance.timeOrigin + performance.now() };
  } finally {
    await Promise.allSettled([index.close(), eventStore.close()]);
  }
}
