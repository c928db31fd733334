import type { Position } from '../../commands/ports.js';
import { deliveryTarget } from '../../projections/delivery-index.js';
import { replayInto } from '../../projections/rebuild.js';
import type { Config } from '../config.js';
import { createEmbedder } from '../embeddings/create.js';
import { bulkLoadDelivery } from '../sqlite/delivery-bulk-load.js';
import { SqliteSearchIndex } from '../sqlite/search-index.js';
import { BufferedSearchIndex } from './buffered-search-index.js';
import { openEventLog } from './event-log.js';
import { scratchRevisions } from './revisions-scratch.js';
import { threadCpuSeconds } from './thread-cpu.js';
import { tell } from './worker-task.js';

/**
 * `finishedAt`: the wall-clock time it was written, in milliseconds since the epoch (threads have their own performance clocks);
 * `cpuSeconds`: the CPU time of the thread that wrote it, where known.
 */
export type DeliveryRebuild = { readonly events: number; readonly position: Position; readonly finishedAt: number; readonly cpuSeconds?: number };

/**
 * Rebuilds the delivery index from the first event into `building`, a file nobody else has
 * open (docs/decisions/0073, 0141): the projection runs against a buffer of the whole index,
 * which is then bulk-loaded, with the search entries and the projection's metadata written
 * through the loaded index after it. It stops at the head it saw; the service that adopts the
 * file catches up from its checkpoint. With `scratch`, the revisions are rebuilt into that file
 * in the same pass, and their position told (`tell`) as soon as it is written.
 */
export async function rebuildDeliveryInto(config: Config, building: string, scratch?: string): Promise<DeliveryRebuild> {
  const eventStore = await openEventLog(config);
  const index = new SqliteSearchIndex(building, true);
  // The revisions are replayed here too, into a scratch file the main thread's swap copies (docs/decisions/0250).
  const revisions = scratch === undefined ? undefined : scratchRevisions(scratch);
  try {
    const delivery = new BufferedSearchIndex(index, async (docs, positions) => {
      await index.close();
      bulkLoadDelivery(building, docs, positions);
      return new SqliteSearchIndex(building, true);
    });
    const targets = [deliveryTarget(delivery, createEmbedder(config.embeddings)), ...(revisions ? [revisions.target] : [])];
    const { events, position } = await replayInto(eventStore, targets, '');
    if (revisions) {
      // Written first: the main thread's swap waits for it, nobody waits for the delivery file.
      await revisions.finish();
      await revisions.close();
      tell(position);
    }
    await delivery.flush();
    return { events, position, finishedAt: performance.timeOrigin + performance.now(), cpuSeconds: threadCpuSeconds() };
  } finally {
    await Promise.allSettled([index.close(), eventStore.close(), revisions?.close()]);
  }
}
