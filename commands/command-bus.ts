import { evolveAll, type Decider, type Message } from '../domain/decider.js';
import { DomainError } from '../domain/errors.js';
import { newEventId } from './event-ids.js';
import { WrongExpectedRevision, type EventMetadata, type EventStore, type Position, type StoredEvent } from './ports.js';
import { retrying, type RetryPolicy } from './retry.js';

export type Loaded<S> = { readonly state: S; readonly revision: number };

export type Handled<S, E> = {
  readonly events: readonly E[];
  /** The aggregate's state after the new events. */
  readonly state: S;
  readonly revision: number;
  /** Global position of the last appended event: what read-your-writes waits for. */
  readonly position: Position;
};

/** A step every command passes before it is decided (commands/write-guards.ts); it refuses by throwing. */
export type WriteGuard = (stream: string, command: Message, metadata: EventMetadata) => Promise<void>;

/**
 * `admitted`: the command is a later step of an operation whose start `admit` let through: the
 * guards are not asked again, so the operation cannot be refused halfway (docs/decisions/0152).
 */
export type HandleOptions = { readonly admitted?: boolean };

type Cached = { readonly decider: unknown; readonly state: unknown; readonly revision: number };
/** A cached state and when it was last used (a counter of uses, not the clock). */
type Slot = { entry: Cached; used: number };

const NO_STREAM = -1;
const CACHE_SIZE = 10_000;
/** How many least recently used states one eviction drops. */
const EVICT_BATCH = CACHE_SIZE / 10;

/** Whether an append lost to another writer of its stream (the store refused the revision it expected). */
export const isVersionConflict = (error: unknown): boolean => error instanceof WrongExpectedRevision;

/**
 * The bus's retry: a command whose append another writer beat is decided again on the state that
 * writer left, four more times at most (five tries), then answered 409 revision_number_conflict.
 */
export const ON_VERSION_CONFLICT: RetryPolicy = { retries: 4, on: isVersionConflict };

/**
 * Loads an aggregate, decides and appends with the revision it read, under a retry policy
 * (ON_VERSION_CONFLICT unless told otherwise). Aggregate states are cached by stream and
 * brought up to date by reading only the events after the cached revision.
 */
export class CommandBus {
  /** Per stream, the end of the commands queued on it in this process. */
  private readonly turns = new Map<string, Promise<unknown>>();
  private readonly cache = new Map<string, Slot>();
  private uses = 0;
  private readonly guards: WriteGuard[] = [];

  constructor(
    private readonly store: EventStore,
    /** Told whether each load found the stream's state in the cache (metrics). */
    private readonly onCacheLookup: (hit: boolean) => void = () => {},
    private readonly retry: RetryPolicy = ON_VERSION_CONFLICT,
  ) {}

  /** Adds a check every later command passes, management and delivery writes alike. */
  useGuard(guard: WriteGuard): void {
    this.guards.push(guard);
  }

  /** Asks the guards about the command of an operation before any of its steps is written; a refusal throws. */
  async admit(stream: string, command: Message, metadata: EventMetadata): Promise<void> {
    for (const guard of this.guards) await guard(stream, command, metadata);
  }

  async load<S, C extends Message, E extends Message>(decider: Decider<S, C, E>, stream: string): Promise<Loaded<S>> {
    const cached = this.cache.get(stream)?.entry;
    this.onCacheLookup(cached !== undefined && cached.decider === decider);
    let state = cached && cached.decider === decider ? (cached.state as S) : decider.initialState();
    let revision = cached && cached.decider === decider ? cached.revision : NO_STREAM;
    const events = await this.store.readStream(stream, revision + 1);
    if (events.length > 0) {
      state = evolveAll(decider, state, events.map((event) => ({ type: event.type, data: event.data }) as E));
      revision = events[events.length - 1]?.revision ?? revision;
    }
    this.remember(stream, { decider, state, revision });
    return { state, revision };
  }

  /** The events of a stream, for facts kept out of aggregate state (revision payloads). */
  readStream(stream: string): Promise<StoredEvent[]> {
    return this.store.readStream(stream);
  }

  /**
   * `command` may be a function of the loaded state, for commands that carry facts looked
   * up from other streams which depend on it: it is evaluated again on every retry.
   *
   * Commands on one stream take turns in this process (docs/decisions/0104): each loads the
   * state the previous one left, so concurrent writers of a hot stream queue up instead of
   * deciding on the same revision and running out of retries. Other processes can still win
   * a revision; the retry policy is for them. A command function must not `handle` a
   * command on its own stream (it would wait for itself); loading any stream is fine.
   */
  handle<S, C extends Message, E extends Message>(
    decider: Decider<S, C, E>,
    stream: string,
    command: C | ((state: S) => Promise<C>),
    metadata: EventMetadata,
    options: HandleOptions = {},
  ): Promise<Handled<S, E>> {
    return this.inTurn(stream, () => this.decideAndAppend(decider, stream, command, metadata, { fresh: false, admitted: options.admitted === true }));
  }

  /**
   * `handle` on a stream named by a key just drawn (a new resource's): its first try decides on
   * the initial state without reading the stream, which cannot hold anything yet
   * (docs/decisions/0296). The append still expects no stream, so should the key be taken after
   * all, the store refuses it and the retry reads the stream as `handle` does.
   */
  handleNew<S, C extends Message, E extends Message>(
    decider: Decider<S, C, E>,
    stream: string,
    command: C,
    metadata: EventMetadata,
    options: HandleOptions = {},
  ): Promise<Handled<S, E>> {
    return this.inTurn(stream, () => this.decideAndAppend(decider, stream, command, metadata, { fresh: true, admitted: options.admitted === true }));
  }

  private async inTurn<T>(stream: string, work: () => Promise<T>): Promise<T> {
    const mine = (this.turns.get(stream) ?? Promise.resolve()).then(work, work);
    const end = mine.catch(() => undefined);
    this.turns.set(stream, end);
    try {
      return await mine;
    } finally {
      if (this.turns.get(stream) === end) this.turns.delete(stream);
    }
  }

  /** Decides and appends under the bus's retry policy; running out of tries answers 409 revision_number_conflict. */
  private async decideAndAppend<S, C extends Message, E extends Message>(
    decider: Decider<S, C, E>,
    stream: string,
    command: C | ((state: S) => Promise<C>),
    metadata: EventMetadata,
    how: { readonly fresh: boolean; readonly admitted: boolean },
  ): Promise<Handled<S, E>> {
    try {
      return await retrying(this.retry, (attempt) => this.tryOnce(decider, stream, command, metadata, how.fresh && attempt === 1, how.admitted));
    } catch (error) {
      if (isVersionConflict(error)) throw new DomainError('revision_number_conflict', 'Another write changed the same entity; retry the same write.');
      throw error;
    }
  }

  /** One try: load (or, for a new key's first try, start from the initial state), guard unless admitted, decide, append. */
  private async tryOnce<S, C extends Message, E extends Message>(
    decider: Decider<S, C, E>,
    stream: string,
    command: C | ((state: S) => Promise<C>),
    metadata: EventMetadata,
    fresh: boolean,
    admitted: boolean,
  ): Promise<Handled<S, E>> {
    const { state, revision } = fresh && !this.cache.has(stream) ? { state: decider.initialState(), revision: NO_STREAM } : await this.load(decider, stream);
    const decided = typeof command === 'function' ? await command(state) : command;
    if (!admitted) await this.admit(stream, decided, metadata);
    const events = decider.decide(decided, state);
    if (events.length === 0) return { events, state, revision, position: '' };
    const appended = await this.store.appendToStream(
      stream,
      events.map((e) => ({ id: newEventId(), type: e.type, data: e.data, metadata })),
      revision === NO_STREAM ? 'no_stream' : revision,
    );
    const next = evolveAll(decider, state, events);
    this.remember(stream, { decider, state: next, revision: appended.revision });
    return { events, state: next, revision: appended.revision, position: appended.position };
  }

  /**
   * Keeps a stream's state, stamped with this use. A stream already cached keeps its slot: a
   * Map entry deleted and set again for every load left a hole each time, and setting and
   * evicting past those holes was 3.6% of the main thread per create (docs/decisions/0216).
   */
  private remember(stream: string, entry: Cached): void {
    const used = ++this.uses;
    const slot = this.cache.get(stream);
    if (slot) {
      slot.entry = entry;
      slot.used = used;
      return;
    }
    this.cache.set(stream, { entry, used });
    if (this.cache.size > CACHE_SIZE) this.evict();
  }

  /** Drops the least recently used states, a tenth of the cache at once (one sort per 1,000 new streams). */
  private evict(): void {
    const stamps = Array.from(this.cache.values(), (slot) => slot.used).sort((a, b) => a - b);
    const oldestKept = stamps[this.cache.size - CACHE_SIZE + EVICT_BATCH] ?? Infinity;
    for (const [stream, slot] of this.cache) if (slot.used < oldestKept) this.cache.delete(stream);
  }
}
