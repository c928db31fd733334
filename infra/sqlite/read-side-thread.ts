// The read side's thread (docs/decisions/0307): the read models', revisions' and usage's
// batches applied on connections of their own to the read-model file, off the event loop that
// answers requests. The runners stay on the main thread (order, faults, waits, readiness); each
// batch comes here as a message and its outcome goes back as one.
import { parentPort, workerData } from 'node:worker_threads';
import type { Position, StoredEvent } from '../../commands/ports.js';
import { READ_MODELS, REVISION_MODELS } from '../../projections/catalog.js';
import type { Doc } from '../../projections/ports.js';
import { RecentDocs } from '../../projections/recent-docs.js';
import { readModelTarget } from '../../projections/read-model-target.js';
import type { ProjectionTarget } from '../../projections/runner.js';
import { usageTarget } from '../../projections/usage.js';
import { SqliteReadStore } from './read-store.js';
import type { ReadSideReply, ReadSideRequest } from './read-side-messages.js';

/** What a committed batch left of one collection, kept to be posted with the batch's outcome. */
class HandedDocs extends RecentDocs {
  last: { readonly docs: ReadonlyMap<string, Doc | null>; readonly removed: boolean } | null = null;

  override committed(values: ReadonlyMap<string, Doc | null>, dropOlder: boolean): void {
    this.last = { docs: values, removed: dropOlder };
  }

  override forget(): void {
    this.last = null;
  }
}

const port = parentPort;
if (!port) throw new Error('read-side-thread runs in a worker thread');
const { file } = workerData as { readonly file: string };
// The main thread's store of the same file keeps its checkpoint thread: none started here.
const store = new SqliteReadStore(file, undefined, { checkpointThread: false });
const handed = new HandedDocs('resources');
const targets = new Map<string, ProjectionTarget>([
  ['read-models', readModelTarget(store, READ_MODELS, 'read-models', [handed])],
  ['revisions', readModelTarget(store, REVISION_MODELS, 'revisions')],
  ['usage', usageTarget(store)],
]);

async function apply(target: string, events: readonly StoredEvent[], position: Position): Promise<ReadSideReply> {
  const found = targets.get(target);
  if (!found) throw new Error(`no read-side target named ${target}`);
  if (target !== 'read-models') {
    await found.apply(events, position);
    return { ok: true };
  }
  // One read-model batch at a time (its runner waits for each): nothing else sets `handed` meanwhile.
  handed.forget();
  await found.apply(events, position);
  return handed.last === null ? { ok: true } : { ok: true, handed: handed.last };
}

port.on('message', (request: ReadSideRequest) => {
  if (request.kind === 'close') {
    void store.close().finally(() => port.close());
    return;
  }
  apply(request.target, request.events, request.position).then(
    (reply) => port.postMessage({ ...reply, id: request.id }),
    // A native Error's message crosses; SQLite's errors would arrive as `{ code }` alone.
    (error: unknown) => port.postMessage({ id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
});
