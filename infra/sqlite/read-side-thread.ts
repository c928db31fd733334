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
import type { ReadSideReplies, ReadSideReply, ReadSideRequest } from './read-side-messages.js';

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
const { file, oneCommit } = workerData as { readonly file: string; readonly oneCommit: boolean };
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

/** Rounds one after another: a round's transaction is never open beside another's units. */
async function drain(): Promise<void> {
  running = true;
  while (queued.length > 0) port!.postMessage(await round(queued.splice(0)));
  running = false;
  if (closing) void store.close().finally(() => port!.close());
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
    // Without rounds, the store's close waits behind the units of work already started (its mutex).
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
  // A turn later: the batches posted meanwhile (the other runners' of the same group) join this round.
  if (!running) {
    running = true;
    setImmediate(() => void drain());
  }
});
