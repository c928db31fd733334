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
import { openSqlite, toPosition, type SqliteDb } from './open.js';
import { SqliteReadStore } from './read-store.js';
import type { BatchEvents, ReadSideReply, ReadSideRequest } from './read-side-messages.js';

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
const { file, eventsFile } = workerData as { readonly file: string; readonly eventsFile: string | null };
// The main thread's store of the same file keeps its checkpoint thread: none started here.
const store = new SqliteReadStore(file, undefined, { checkpointThread: false });
const handed = new HandedDocs('resources');
const targets = new Map<string, ProjectionTarget>([
  ['read-models', readModelTarget(store, READ_MODELS, 'read-models', [handed])],
  ['revisions', readModelTarget(store, REVISION_MODELS, 'revisions')],
  ['usage', usageTarget(store)],
]);

type Row = [position: number, id: string, stream: string, revision: number, type: string, data: string, metadata: string];
let log: { readonly db: SqliteDb; readonly range: { all(from: number, to: number): Row[] } } | null = null;

/**
 * A batch's events read from the event store's file: the runner holds every event of `$all` in
 * order, so its batch is every row from its first position to its last. Only events whose group
 * has committed and synced reach a runner, so the rows are there; null when they are not all there.
 */
function eventsOf(batch: BatchEvents): readonly StoredEvent[] | null {
  if ('events' in batch) return batch.events;
  if (eventsFile === null) return null;
  if (log === null) {
    const db = openSqlite(eventsFile);
    log = { db, range: db.prepare<[number, number], Row>('SELECT position, id, stream, revision, type, data, metadata FROM events WHERE position >= ? AND position <= ? ORDER BY position').raw() };
  }
  const rows = log.range.all(batch.range.from, batch.range.to);
  if (rows.length !== batch.range.count) return null;
  return rows.map(([at, id, stream, revision, type, data, metadata]) => ({ id, stream, revision, position: toPosition(at), type, data: JSON.parse(data), metadata: JSON.parse(metadata) }));
}

async function apply(target: string, batch: BatchEvents, position: Position): Promise<ReadSideReply> {
  const found = targets.get(target);
  if (!found) throw new Error(`no read-side target named ${target}`);
  const events = eventsOf(batch);
  if (events === null) return { ok: false, message: 'the event store does not hold the batch as sent', resend: true };
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
    if (log?.db.open) log.db.close();
    void store.close().finally(() => port.close());
    return;
  }
  apply(request.target, request, request.position).then(
    (reply) => port.postMessage({ ...reply, id: request.id }),
    // A native Error's message crosses; SQLite's errors would arrive as `{ code }` alone.
    (error: unknown) => port.postMessage({ id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
});
