import type { ProjectionTarget } from '../../projections/runner.js';
import type { EventMetadata, EventStore, Position, StoredEvent } from '../ports.js';
import { newEventId } from '../event-ids.js';
import { CHECKPOINT_EVENT, CHECKPOINT_STREAM, checkpointMessage, type ChainHead, type SignedCheckpoint } from '../../domain/audit-checkpoint.js';

export type CheckpointDeps = {
  readonly store: Pick<EventStore, 'appendToStream' | 'readStream'>;
  /** The chained hash of `event` after `previous` (the event store's own chain, docs/decisions/0071). */
  readonly chain: (previous: string, event: StoredEvent) => string;
  /** The previous hash of the first event. */
  readonly genesis: string;
  /** The signature (base64) of a message, and the key's id. */
  readonly sign: (message: string) => string;
  readonly key: string;
  /** A checkpoint after this many events of the log (its own checkpoints not counted) ... */
  readonly everyEvents: number;
  /** ... or this long after the last one, whichever comes first, when events came since. */
  readonly everySeconds: number;
  readonly now: () => string;
  /** Told each checkpoint once stored (the service logs it at info: a second witness outside the data directory). */
  readonly signed: (checkpoint: SignedCheckpoint) => void;
  readonly log: (message: string, error: unknown) => void;
  /** Whether a position is one of this store's (a log imported from another store keeps the other's in its checkpoints). */
  readonly ownPosition: (position: Position) => boolean;
};

/** Where the chain is: the last event counted, how many, and its hash. */
type Head = { position: Position; events: number; hash: string };

/**
 * The checkpoint signer as a projection target: it follows `$all`, recomputes the hash chain over
 * the events it reads, and every `everyEvents` events (or `everySeconds`) signs the head and
 * appends the signed checkpoint to CHECKPOINT_STREAM. That stream is its checkpoint: a restart
 * resumes from the last signed head, its count and its hash, so nothing is signed twice and no
 * event is counted twice. A failed append throws: the runner's fault policy retries and stops on it.
 */
export function checkpointTarget(deps: CheckpointDeps): ProjectionTarget & { close(): Promise<void> } {
  let head: Head = { position: '', events: 0, hash: deps.genesis };
  /** The count of events the last checkpoint signed. */
  let signedEvents = 0;
  let revision: number | 'no_stream' = 'no_stream';
  /** Events counted since the last checkpoint, its own checkpoints aside. */
  let unsigned = 0;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  // The timer's checkpoints and the runner's batches take turns.
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const done = turn.then(work);
    turn = done.catch(() => undefined);
    return done;
  };

  const sign = async (): Promise<void> => {
    if (head.events <= signedEvents) return;
    const chainHead: ChainHead = { position: head.position, events: head.events, head_hash: head.hash, time: deps.now() };
    const checkpoint: SignedCheckpoint = { ...chainHead, signature: deps.sign(checkpointMessage(chainHead)), key: deps.key };
    const metadata: EventMetadata = { actor_type: 'system', actor: null, ip_address: null, referer: null, timestamp: chainHead.time };
    const result = await deps.store.appendToStream(CHECKPOINT_STREAM, [{ id: newEventId(), type: CHECKPOINT_EVENT, data: checkpoint, metadata }], revision);
    revision = result.revision;
    signedEvents = checkpoint.events;
    unsigned = 0;
    deps.signed(checkpoint);
    arm();
  };

  /** `everySeconds` from now (from the last checkpoint): a checkpoint if events came since, else the next wait. */
  function arm(): void {
    if (timer) clearTimeout(timer);
    if (closed) return;
    timer = setTimeout(() => {
      timer = null;
      inTurn(() => (unsigned > 0 ? sign() : Promise.resolve()))
        .catch((error: unknown) => deps.log('audit checkpoint failed', error))
        .finally(() => {
          if (!timer) arm();
        });
    }, deps.everySeconds * 1000);
    timer.unref();
  }

  return {
    name: 'audit-checkpoints',
    async checkpoint() {
      const stored = await deps.store.readStream(CHECKPOINT_STREAM);
      const last = stored[stored.length - 1];
      if (last) {
        const data = last.data as SignedCheckpoint;
        signedEvents = data.events;
        revision = last.revision;
        // An imported log: its checkpoints name the other store's positions, so the chain is counted again from the start, once.
        if (deps.ownPosition(data.position)) head = { position: data.position, events: data.events, hash: data.head_hash };
      }
      if (!timer) arm();
      return head.position;
    },
    apply: (events: readonly StoredEvent[]) =>
      inTurn(async () => {
        for (const event of events) {
          // Counted already (a batch retried after a failed checkpoint).
          if (event.position > head.position) {
            head = { position: event.position, events: head.events + 1, hash: deps.chain(head.hash, event) };
            if (event.stream !== CHECKPOINT_STREAM && head.events > signedEvents) unsigned += 1;
          }
          if (unsigned >= deps.everyEvents) await sign();
        }
      }),
    /** Stops the timer and waits for a checkpoint under way (before the event store closes). */
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await turn;
    },
  };
}
