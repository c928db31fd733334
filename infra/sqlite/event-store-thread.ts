// The event store's writer thread (docs/decisions/0315): the group commit and the WAL sync on a
// connection of their own to events.db, off the event loop that answers requests. The main thread
// posts each append as it is made; every append that arrived while the thread committed and synced
// the last group forms the next one (natural group commit). One reply per group, once its sync ended.
import { parentPort, workerData } from 'node:worker_threads';
import { checkpointWithoutThread } from './background-checkpoints.js';
import { GroupCommit, type GroupAppend } from './event-group-commit.js';
import { GATE, SLOT, toRefusal, type Refusal, type WriterReply, type WriterRequest } from './event-store-messages.js';
import { openSqlite } from './open.js';
import { WalFile } from './wal-sync.js';

const port = parentPort;
if (!port) throw new Error('event-store-thread runs in a worker thread');
const { file, shared, gate } = workerData as { readonly file: string; readonly shared: SharedArrayBuffer; readonly gate: SharedArrayBuffer | null };
const slots = new BigInt64Array(shared);
const hook = gate === null ? null : new Int32Array(gate);

/** Most appends one group commit takes; the rest wait for the next one. */
const GROUP_MAX = 1000;

const db = openSqlite(file);
// Commits write the WAL without syncing it; the thread syncs it before anyone hears of them (0190).
db.pragma('synchronous = NORMAL');
// The main thread's store registered the file with the checkpoint thread; this connection checkpoints only past the fallback mark.
checkpointWithoutThread(db);
const wal = new WalFile(`${file}-wal`);
const committer = new GroupCommit(db);
const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
let version = dataVersion.get() ?? 0;

const queued: GroupAppend[] = [];
let scheduled = false;
let closing = false;
/** Set when a WAL sync failed: every later append is refused with it (docs/decisions/0190). */
let failure: Refusal | null = null;

const now = (): number => performance.timeOrigin + performance.now();

/** Before the WAL sync: a test may hold it (until released) or make it fail. */
function atTheGate(): void {
  if (hook === null) return;
  if (Atomics.load(hook, GATE.hold) === 1) {
    Atomics.add(hook, GATE.waited, 1);
    while (Atomics.load(hook, GATE.hold) === 1) Atomics.wait(hook, GATE.hold, 1, 50);
  }
  if (Atomics.load(hook, GATE.fail) > 0) {
    Atomics.sub(hook, GATE.fail, 1);
    throw new Error('WAL sync failed (test hook)');
  }
}

/**
 * Inside a group's transaction, before its appends: whether another connection (another process)
 * committed since the last look. The main thread's stream heads hear of it (0270), and the group
 * chains its hashes from the newest row as stored, not from this thread's last one.
 */
function foreignCommits(): boolean {
  const current = dataVersion.get() ?? 0;
  if (current === version) return false;
  version = current;
  Atomics.add(slots, SLOT.foreign, 1n);
  return true;
}

function refuseAll(count: number, refusal: Refusal, failed: boolean): void {
  const at = now();
  const reply = failed ? { failed: refusal } : { refused: refusal };
  port!.postMessage({ kind: 'group', count, outcomes: [], rows: [], ...reply, commit: [at, 0], sync: null } satisfies WriterReply);
}

/** Commits one group, syncs the WAL, replies. */
function group(appends: readonly GroupAppend[]): void {
  if (failure !== null) return refuseAll(appends.length, failure, true);
  const committing = now();
  let committed;
  try {
    committed = committer.commit(appends, {
      first: foreignCommits,
      beforeCommit: (rows) => {
        // Before the COMMIT makes them visible: the main thread's readers stay below them until the sync ended.
        if (rows.length === 0) return;
        Atomics.store(slots, SLOT.unsynced, BigInt(rows[0]!.position));
        Atomics.store(slots, SLOT.last, BigInt(rows[rows.length - 1]!.position));
      },
    });
  } catch (error) {
    // Nothing of the group was stored.
    Atomics.store(slots, SLOT.unsynced, -1n);
    return refuseAll(appends.length, toRefusal(error), false);
  }
  Atomics.add(slots, SLOT.commits, 1n);
  const commit: [number, number] = [committing, now() - committing];
  const outcomes = committed.outcomes.map((o) => (o.ok ? o : { ok: false as const, refusal: toRefusal(o.error) }));
  const syncing = now();
  if (committed.rows.length > 0 || outcomes.some((o) => o.ok)) {
    try {
      atTheGate();
      wal.syncBlocking();
    } catch (error) {
      // Whether the group reached the disk is unknown: its rows stay unreadable (the slot is kept) and every later append is refused.
      failure = toRefusal(error);
      port!.postMessage({ kind: 'group', count: appends.length, outcomes, rows: [], failed: failure, commit, sync: [syncing, now() - syncing] } satisfies WriterReply);
      return;
    }
  }
  Atomics.store(slots, SLOT.unsynced, -1n);
  port!.postMessage({ kind: 'group', count: appends.length, outcomes, rows: committed.rows, commit, sync: [syncing, now() - syncing] } satisfies WriterReply);
}

/** Every append queued now, in groups of at most GROUP_MAX; what arrives meanwhile waits for the next turn. */
function run(): void {
  scheduled = false;
  const appends = queued.splice(0);
  for (let i = 0; i < appends.length; i += GROUP_MAX) group(appends.slice(i, i + GROUP_MAX));
  if (closing) close();
}

function close(): void {
  if (db.open) db.close();
  wal.close();
  port!.postMessage({ kind: 'closed' } satisfies WriterReply);
  port!.close();
}

port.on('message', (message: WriterRequest) => {
  if (message.kind === 'close') {
    // The appends posted before it are committed (and answered) first.
    closing = true;
    if (!scheduled) run();
    return;
  }
  // Each message is one turn's appends of the main thread: a group of its own (docs/decisions/0315), with
  // those that arrived while the last group committed and synced (the port hands over all it holds at once).
  for (const append of message.appends) queued.push(append);
  if (!scheduled) {
    scheduled = true;
    setImmediate(run);
  }
});
