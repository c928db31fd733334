import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Position } from '../../commands/ports.js';
import { READ_MODELS } from '../../projections/catalog.js';
import { readModelTarget } from '../../projections/read-model-target.js';
import { usageTarget } from '../../projections/usage.js';
import { replayInto, type ReplayProgress } from '../../projections/rebuild.js';
import type { Config } from '../config.js';
import { REBUILT_DELIVERY } from '../sqlite/delivery-adopt.js';
import { clearShadow, SHADOW, swapInReadModels } from '../sqlite/read-model-swap.js';
import { SqliteReadStore } from '../sqlite/read-store.js';
import { BufferedReadStore } from './buffered-read-store.js';
import type { DeliveryRebuild } from './delivery-rebuild.js';
import { openEventLog } from './event-log.js';
import type { EventLog } from '../sqlite/event-log-reader.js';
import { SCRATCH_FILE, scratchRevisions } from './revisions-scratch.js';
import { workerTask } from './worker-task.js';

export type RebuildReport = {
  readonly events: number;
  /** From the start to the swapped-in read models and the written delivery index. */
  readonly seconds: number;
  /** Of which replaying the events through the read-model projections (the rest: writing out, swapping, fixed costs). */
  readonly replaySeconds: number;
  /** From the start to the swapped-in read models. */
  readonly readModelSeconds: number;
  /** From the start to the written delivery index (built at the same time, in its own thread). */
  readonly deliverySeconds: number;
  /** The position the read models were swapped in at. */
  readonly position: Position;
  /** Attempts at the swap (a running service that got ahead makes the rebuild catch up first). */
  readonly swapAttempts: number;
  /** The rebuilt delivery index, adopted by the next start. */
  readonly deliveryFile: string;
  /** CPU time of the thread that rebuilt the delivery index (and the revisions), where known. */
  readonly deliveryCpuSeconds?: number;
};

const SWAP_ATTEMPTS = 20;

const removeDb = (file: string): void => {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
};

/** Brings the revisions of the scratch file up to the head, on this thread, after a refused swap. */
async function catchUpScratch(eventStore: EventLog, file: string): Promise<void> {
  const revisions = scratchRevisions(file, true);
  try {
    await replayInto(eventStore, [revisions.target], await revisions.target.checkpoint());
    await revisions.finish();
  } finally {
    await revisions.close();
  }
}

/**
 * Rebuilds every projection of the embedded stores from the first event (docs/decisions/0073):
 * the read models into `rb_` tables of read-models.db, swapped in at the end while a running
 * service keeps serving the old ones until then; the delivery index into a fresh file that the
 * next start adopts. `onStart` learns the number of events to expect (0 when unknown).
 */
export async function rebuildProjections(config: Config, progress?: ReplayProgress, onStart?: (total: number) => void): Promise<RebuildReport> {
  if (config.mongoUrl || config.openSearchUrl) throw new Error('npm run rebuild rebuilds the embedded read stores only (unset MONGO_URL and OPENSEARCH_URL)');
  const started = performance.now();
  const eventStore = await openEventLog(config);
  const readFile = join(config.dataDir, 'read-models.db');
  const building = join(config.dataDir, 'delivery.rebuilding.db');
  const scratch = join(config.dataDir, SCRATCH_FILE);
  clearShadow(readFile);
  removeDb(building);
  removeDb(scratch);
  const shadow = new SqliteReadStore(readFile, SHADOW);
  // The delivery index is rebuilt at the same time, in a thread of its own (docs/decisions/0141),
  // and so are the revisions, into a scratch file it tells us of before it writes the index (0250).
  const delivery = workerTask<DeliveryRebuild, Position>(import.meta.url, 'delivery-worker', { config, building, scratch });
  try {
    // Audit entries are written once per event and never read back: written out page by page (0250).
    const buffered = new BufferedReadStore(shadow, undefined, false, new Set(['audit_events']));
    const readModels = readModelTarget(buffered, READ_MODELS);
    // No prepare(): the rebuilt tables get their indexes when they are swapped in.
    const targets = [readModels, usageTarget(buffered)];

    const head = await eventStore.headPosition();
    onStart?.(/^\d+$/.test(head) ? Number(head) : 0);
    const replayStarted = performance.now();
    let { position, events } = await replayInto(eventStore, targets, '', progress);
    const replaySeconds = (performance.now() - replayStarted) / 1000;
    let attempts = 0;
    for (;;) {
      attempts += 1;
      await buffered.flush();
      await delivery.early;
      if (swapInReadModels(readFile, scratch)) break;
      if (attempts >= SWAP_ATTEMPTS) throw new Error(`the running service stayed ahead of the rebuild ${SWAP_ATTEMPTS} times; nothing was swapped`);
      const more = await replayInto(eventStore, targets, position, (n, at) => progress?.(events + n, at));
      position = more.position;
      events += more.events;
      await catchUpScratch(eventStore, scratch);
    }
    const readModelSeconds = (performance.now() - started) / 1000;
    const built = await delivery.result;
    renameSync(building, join(config.dataDir, REBUILT_DELIVERY));
    const deliverySeconds = (built.finishedAt - performance.timeOrigin - started) / 1000;
    return { events, seconds: (performance.now() - started) / 1000, replaySeconds, readModelSeconds, deliverySeconds, position, swapAttempts: attempts, deliveryFile: join(config.dataDir, REBUILT_DELIVERY), deliveryCpuSeconds: built.cpuSeconds };
  } finally {
    await delivery.stop();
    await Promise.allSettled([shadow.close(), eventStore.close()]);
    if (existsSync(building)) removeDb(building);
    removeDb(scratch);
  }
}
