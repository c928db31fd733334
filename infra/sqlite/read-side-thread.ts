// The read side's thread (docs/decisions/0307): the read models', revisions' and usage's
// batches applied on connections of their own to the read-model file, off the event loop that
// answers requests. The runners stay on the main thread (order, faults, waits, readiness); each
// batch comes here as a message, and the outcomes of the batches applied together (one
// transaction, docs/decisions/0311) go back as one.
import { parentPort, workerData } from 'node:worker_threads';
import type { Position, StoredEvent } from '../../commands/ports.js';
import { READ_MODELS, REVISION_MODELS } from '../../projections/catalog.js';
import type { Doc } from '../../projections/ports.js';
import { RecentDocs } from '../../projections/recent-docs.js';
import { readModelTarget } from '../../projections/read-model-target.js';
import type { ProjectionTarget } from '../../projections/runner.js';
import { usageTarget } from '../../projections/usage.js';
import { SqliteReadStore } from './read-store.js';
import { storedEvent } from './stored-event.js';
import type { CommittedRow } from './event-store.js';
import type { ReadSideReplies, ReadSideReply, ReadSideRequest } from './read-side-messages.js';

type Handed = { readonly docs: ReadonlyMap<string, Doc | null>; readonly removed: boolean };

/** What a committed batch left of one collection, kept to be posted with the batch's outcome. */
class HandedDocs extends RecentDocs {
  last: Handed | null = null;

  override committed(values: ReadonlyMap<string, Doc | null>, dropOlder: boolean): void {
    this.last = { docs: values, removed: dropOlder };
  }

  override forget(): void {
    this.last = null;
  }
}

const port = parentPort;
if (!port) throw new Error('read-side-thread runs in a worker thread');
const { file, oneCommit, previewMs } = workerData as { readonly file: string; readonly oneCommit: boolean; readonly previewMs: number };
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

type Apply = Extract<ReadSideRequest, { kind: 'apply' }> & { readonly events: readonly StoredEvent[] };

// A native Error's message crosses; SQLite's errors would arrive as `{ code }` alone.
const refused = (id: number, error: unknown): ReadSideReplies[number] => ({ id, ok: false, message: error instanceof Error ? error.message : String(error) });

/** One batch in its own transaction (its unit of work). */
const outcome = (request: Apply): Promise<ReadSideReplies[number]> =>
  apply(request.target, request.events, request.position).then(
    (reply) => ({ ...reply, id: request.id }),
    (error: unknown) => refused(request.id, error),
  );

/**
 * The batches that arrived since the last round, applied in one transaction (docs/decisions/0311):
 * the three runners post theirs for the same group of events within a fraction of a millisecond,
 * so one `COMMIT` and one reply serve them all, answered once it is done. If any batch (or the
 * `COMMIT`) fails, nothing of the round is stored and each batch is applied again in its own
 * transaction, as without rounds: only the failing one fails, and its runner's fault policy applies.
 */
async function round(requests: readonly Apply[]): Promise<ReadSideReplies> {
  if (requests.length > 1) {
    try {
      return await store.unitsTogether(async () => {
        const replies: ReadSideReplies[number][] = [];
        for (const request of requests) replies.push({ ...(await apply(request.target, request.events, request.position)), id: request.id });
        return replies;
      });
    } catch {
      // Rolled back, and with it what the read-model batch handed over: each batch again on its own below.
      handed.forget();
    }
  }
  const replies: ReadSideReplies[number][] = [];
  for (const request of requests) replies.push(await outcome(request));
  return replies;
}

const queued: Apply[] = [];
let running = false;
let closing = false;

/** The highest position a round applied: a preview at or below it holds events already applied. */
let appliedUpTo: Position = '';
const noteApplied = (requests: readonly Apply[]): void => {
  for (const { position } of requests) if (position > appliedUpTo) appliedUpTo = position;
};

/** Groups previewed and not yet opened, oldest first (docs/decisions/0313): the next batches are the oldest group's. */
const waitingPreviews: (readonly CommittedRow[])[] = [];
/** More waiting than this: the oldest are dropped (the thread is far behind; their batches come without them). */
const WAITING_MAX = 4;
/** While a preview is open: looks at the batches queued (called as each arrives). */
let claim: (() => void) | null = null;

/** Rounds one after another, and previews between them: a transaction is never open beside another's units. */
async function drain(): Promise<void> {
  running = true;
  for (;;) {
    if (queued.length > 0) {
      const requests = queued.splice(0);
      port!.postMessage(await round(requests));
      noteApplied(requests);
      continue;
    }
    const rows = waitingPreviews.shift();
    if (rows === undefined || closing) break;
    // Skipped when its batches came and were applied before the thread got to it.
    if (rows[0]!.position > appliedUpTo) await previewRound(rows);
  }
  running = false;
  if (closing) void store.close().finally(() => port!.close());
}

/** As the event store parses a row of `$all`: the preview's events are the batches' own. */
const toStored = (row: CommittedRow): StoredEvent => storedEvent(row, row.position);

const PREVIEWED = [...targets.keys()];

/** Whether `request`'s batch starts with exactly the preview's events (its target's checkpoint is just before them). */
const covers = (request: Apply, events: readonly StoredEvent[]): boolean =>
  targets.has(request.target) &&
  request.events.length >= events.length &&
  events.every((event, i) => request.events[i]!.position === event.position && request.events[i]!.id === event.id);

/**
 * The batches that claim the open preview: one of each target, each starting with its events.
 * Resolves with them (taken from the queue) once they are all queued; with null as soon as a
 * queued batch does not match, when the others of the round have not come a turn after the first
 * (a paused runner), when the thread closes, or after `previewMs` (the sync failed or is slow).
 */
function claimFor(events: readonly StoredEvent[]): Promise<Apply[] | null> {
  return new Promise((resolve) => {
    let waitingTurn = false;
    const done = (requests: Apply[] | null): void => {
      clearTimeout(timer);
      claim = null;
      resolve(requests);
    };
    const look = (last: boolean): void => {
      if (claim !== check) return;
      if (closing) return done(null);
      if (queued.length === 0) return last ? done(null) : undefined;
      if (!queued.every((request) => covers(request, events))) return done(null);
      const names = new Set(queued.map((request) => request.target));
      if (names.size < queued.length) return done(null);
      if (names.size === PREVIEWED.length) return done(queued.splice(0));
      if (last) return done(null);
      // The runners post a group's batches in one turn of the main thread: the others come with it.
      if (!waitingTurn) {
        waitingTurn = true;
        setImmediate(() => look(true));
      }
    };
    const check = (): void => look(false);
    const timer = setTimeout(() => done(null), previewMs);
    claim = check;
    check();
  });
}

/** The read-model batch's hand-over after a preview: what the preview left, and what the rest of its batch left over it. */
function afterPreview(preview: Handed | null, rest: ReadSideReply): ReadSideReply {
  if (!rest.ok || preview === null || rest.handed?.removed) return rest;
  const docs = new Map(preview.docs);
  for (const [id, doc] of rest.handed?.docs ?? []) docs.set(id, doc);
  return { ok: true, handed: { docs, removed: preview.removed } };
}

class Unclaimed extends Error {}

/**
 * A group's events applied through the three targets during its WAL sync, in a transaction left
 * open (docs/decisions/0313): no reader sees them. When the runners' batches for them come (after
 * the sync, from `$all`, unchanged), each starting with the preview's events, the rest of each
 * batch and its checkpoint are written into the same transaction and it commits: the round's
 * reply comes without applying the group after the sync. Otherwise it rolls back and the batches
 * are applied as without previews.
 */
async function previewRound(rows: readonly CommittedRow[]): Promise<void> {
  let claimed: Apply[] | null = null;
  try {
    const events = rows.map(toStored);
    const replies = await store.unitsTogether(async () => {
      let preview: Handed | null = null;
      const last = events[events.length - 1]!.position;
      for (const name of PREVIEWED) {
        // Checkpoints move to the preview's end here; each claiming batch writes its own below, or all roll back.
        const reply = await apply(name, events, last);
        if (name === 'read-models' && reply.ok && reply.handed) preview = reply.handed;
      }
      claimed = await claimFor(events);
      if (claimed === null) throw new Unclaimed();
      const replies: ReadSideReplies[number][] = [];
      for (const request of claimed) {
        const rest = await apply(request.target, request.events.slice(events.length), request.position);
        replies.push({ ...(request.target === 'read-models' ? afterPreview(preview, rest) : rest), id: request.id, previewed: true });
      }
      return replies;
    });
    port!.postMessage(replies);
    noteApplied(claimed!);
  } catch {
    // Rolled back with what the preview handed over; the batches, claimed or still queued, are applied as without it.
    handed.forget();
    if (claimed !== null) queued.unshift(...(claimed as Apply[]));
  }
}

/** The events of the last request that carried them (the main thread names them instead of copying them again). */
let lastEvents: { readonly id: number; readonly events: readonly StoredEvent[] } | null = null;

/** The request with its events, taken from the one it names when it names one. */
function withEvents(request: Extract<ReadSideRequest, { kind: 'apply' }>): Apply {
  const { events } = request;
  if (Array.isArray(events)) {
    lastEvents = { id: request.id, events };
    return { ...request, events };
  }
  const named = (events as { readonly sameAs: number }).sameAs;
  if (lastEvents?.id !== named) throw new Error(`batch ${request.id} names the events of ${named}, which the read side's thread does not hold`);
  return { ...request, events: lastEvents.events };
}

port.on('message', (message: ReadSideRequest) => {
  if (message.kind === 'close') {
    closing = true;
    // An open preview rolls back; without rounds, the store's close waits behind the units of work already started (its mutex).
    claim?.();
    if (!running) void drain();
    return;
  }
  if (message.kind === 'preview') {
    // Previews need rounds: without them each batch commits on its own, beside any open transaction.
    if (!oneCommit || message.rows.length === 0) return;
    waitingPreviews.push(message.rows);
    if (waitingPreviews.length > WAITING_MAX) waitingPreviews.shift();
    // At once, not a turn later: the point is to work while the sync runs.
    if (!running) void drain();
    return;
  }
  let request: Apply;
  try {
    request = withEvents(message);
  } catch (error) {
    port.postMessage([refused(message.id, error)] satisfies ReadSideReplies);
    return;
  }
  if (!oneCommit) {
    // Each batch in its own transaction, answered once it committed (its store's mutex keeps them in turn).
    void outcome(request).then((reply) => port.postMessage([reply] satisfies ReadSideReplies));
    return;
  }
  queued.push(request);
  if (claim) return claim();
  // A turn later: the batches posted meanwhile (the other runners' of the same group) join this round.
  if (!running) {
    running = true;
    setImmediate(() => void drain());
  }
});
