import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Position } from '../../commands/ports.js';
import { READ_MODELS, REVISION_MODELS } from '../../projections/catalog.js';
import { deliveryTarget } from '../../projections/delivery-index.js';
import { readModelTarget } from '../../projections/read-model-target.js';
import { usageTarget } from '../../projections/usage.js';
import { replayInto, type ReplayProgress } from '../../projections/rebuild.js';
import { openEventStoreOf } from '../cli/event-store.js';
import type { Config } from '../config.js';
import { createEmbedder } from '../embeddings/create.js';
import { bulkLoadDelivery } from '../sqlite/delivery-bulk-load.js';
import { REBUILT_DELIVERY } from '../sqlite/delivery-adopt.js';
import { clearShadow, SHADOW, swapInReadModels } from '../sqlite/read-model-swap.js';
import { SqliteReadStore } from '../sqlite/read-store.js';
import { SqliteSearchIndex } from '../sqlite/search-index.js';
import { BufferedReadStore } from './buffered-read-store.js';
import { BufferedSearchIndex } from './buffered-search-index.js';

export type RebuildReport = {
  readonly events: number;
  /** From the start to the swapped-in read models and the written delivery index. */
  readonly seconds: number;
  /** Of which replaying the events through the projections (the rest: writing out, swapping, fixed costs). */
  readonly replaySeconds: number;
  /** The position the read models were swapped in at. */
  readonly position: Position;
  /** Attempts at the swap (a running service that got ahead makes the rebuild catch up first). */
  readonly swapAttempts: number;
  /** The rebuilt delivery index, adopted by the next start. */
  readonly deliveryFile: string;
};

const SWAP_ATTEMPTS = 20;

const removeDb = (file: string): void => {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
};

/**
 * Rebuilds every projection of the embedded stores from the first event (docs/decisions/0073):
 * the read models into `rb_` tables of read-models.db, swapped in at the end while a running
 * service keeps serving the old ones until then; the delivery index into a fresh file that the
 * next start adopts. `onStart` learns the number of events to expect (0 when unknown).
 */
export async function rebuildProjections(config: Config, progress?: ReplayProgress, onStart?: (total: number) => void): Promise<RebuildReport> {
  if (config.mongoUrl || config.openSearchUrl) throw new Error('npm run rebuild rebuilds the embedded read stores only (unset MONGO_URL and OPENSEARCH_URL)');
  const started = performance.now();
  const eventStore = await openEventStoreOf(config);
  const readFile = join(config.dataDir, 'read-models.db');
  const building = join(config.dataDir, 'delivery.rebuilding.db');
  clearShadow(readFile);
  removeDb(building);
  const shadow = new SqliteReadStore(readFile, SHADOW);
  const index = new SqliteSearchIndex(building);
  try {
    const buffered = new BufferedReadStore(shadow);
    const readModels = readModelTarget(buffered, READ_MODELS);
    const revisions = readModelTarget(buffered, REVISION_MODELS, 'revisions');
    // No prepare(): the rebuilt tables get their indexes when they are swapped in.
    // The documents go in by one bulk load; the search entries and the projection's metadata through the index after it.
    const delivery = new BufferedSearchIndex(index, async (docs, positions) => {
      await index.close();
      bulkLoadDelivery(building, docs, positions);
      return new SqliteSearchIndex(building);
    });
    const targets = [readModels, revisions, usageTarget(buffered), deliveryTarget(delivery, createEmbedder(config.embeddings))];

    const head = await eventStore.headPosition();
    onStart?.(/^\d+$/.test(head) ? Number(head) : 0);
    const replayStarted = performance.now();
    let { position, events } = await replayInto(eventStore, targets, '', progress);
    const replaySeconds = (performance.now() - replayStarted) / 1000;
    let attempts = 0;
    for (;;) {
      attempts += 1;
      await buffered.flush();
      if (swapInReadModels(readFile)) break;
      if (attempts >= SWAP_ATTEMPTS) throw new Error(`the running service stayed ahead of the rebuild ${SWAP_ATTEMPTS} times; nothing was swapped`);
      const more = await replayInto(eventStore, targets, position, (n, at) => progress?.(events + n, at));
      position = more.position;
      events += more.events;
    }
    await delivery.flush();
    await index.close();
    renameSync(building, join(config.dataDir, REBUILT_DELIVERY));
    return { events, seconds: (performance.now() - started) / 1000, replaySeconds, position, swapAttempts: attempts, deliveryFile: join(config.dataDir, REBUILT_DELIVERY) };
  } finally {
    await Promise.allSettled([shadow.close(), index.close(), eventStore.close()]);
    if (existsSync(building)) removeDb(building);
  }
}
