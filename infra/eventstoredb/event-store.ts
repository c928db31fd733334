import { EventEmitter } from 'node:events';
import { Observable } from 'rxjs';
import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  type AllStreamResolvedEvent,
  type Direction,
} from '@eventstore/db-client';
import {
  WrongExpectedRevision,
  type AppendResult,
  type ChainReport,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type StoredEvent,
} from '../../commands/ports.js';
import { fromCurrent, isSystemEvent, sameIds, toEventData, toExpected, toStored } from './mapping.js';
import { Mutex } from '../mutex.js';
import { chainEvents, chainRowOf, firstRevision, GENESIS, hashOf, verifyRows } from './hash-chain.js';
import type { StoredChainRow } from '../audit/hash-chain.js';
import { encodePosition, readPosition } from './position.js';

const CHUNK = 500;

/** The production event store: EventStoreDB / KurrentDB over gRPC. */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly closing = new EventEmitter();
  private readonly stopping = new Set<Promise<void>>();
  /** Appends chain their hash to the newest event of $all, so this process appends one at a time (docs/decisions/0071). */
  private readonly appends = new Mutex();

  constructor(connectionString: string) {
    this.client = EventStoreDBClient.connectionString(connectionString);
    this.closing.setMaxListeners(0);
  }

  appendToStream(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) return Promise.reject(new Error('append of no events'));
    return this.appends.run(() => this.appendChained(stream, events, expected));
  }

  /** The hash of the newest event of $all (the previous hash of the next append). */
  private async lastHash(): Promise<string> {
    for await (const resolved of this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: CHUNK })) {
      const event = resolved.event;
      if (event && !isSystemEvent(event.type)) return hashOf(event.metadata) ?? GENESIS;
    }
    return GENESIS;
  }

  private async appendChained(stream: string, plain: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const current = typeof expected === 'number' ? expected : await this.currentRevision(stream);
    const { events } = chainEvents(plain, stream, firstRevision(expected, current), await this.lastHash());
    let result;
    try {
      result = await this.client.appendToStream(stream, events.map(toEventData), { expectedRevision: toExpected(expected) });
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) throw new WrongExpectedRevision(stream, expected, fromCurrent(error.actualVersion));
      throw error;
    }
    // Only when the connection string sets throwOnAppendFailure=false (its revision is then unreliable: read it).
    if (!result.success) throw new WrongExpectedRevision(stream, expected, await this.currentRevision(stream));
    return this.locate(stream, events, result.nextExpectedRevision);
  }

  /**
   * The revision and exact position of the last appended event, read back from the stream:
   * the append result carries one position for the whole write (none, or another one, for an
   * idempotent retry), so a retry must find the same events and answer the same.
   */
  private async locate(stream: string, events: readonly NewEvent[], last: bigint): Promise<AppendResult> {
    const first = last - BigInt(events.length - 1);
    let stored = first >= 0n ? await this.read(stream, first, events.length) : [];
    if (!sameIds(stored, events)) {
      const all = await this.read(stream, 0n);
      const at = all.findIndex((e) => e.id.toLowerCase() === events[0]?.id.toLowerCase());
      stored = at < 0 ? [] : all.slice(at, at + events.length);
    }
    const tail = stored[stored.length - 1];
    if (!tail || !sameIds(stored, events)) throw new Error(`event ids of the append to ${stream} do not match the stored ones`);
    return { revision: tail.revision, position: tail.position };
  }

  private async read(stream: string, fromRevision: bigint, maxCount?: number): Promise<StoredEvent[]> {
    const out: StoredEvent[] = [];
    try {
      const events = this.client.readStream(stream, { fromRevision, direction: FORWARDS, ...(maxCount === undefined ? {} : { maxCount }) });
      for await (const resolved of events) if (resolved.event) out.push(toStored(resolved.event));
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return out;
  }

  async verifyChain(): Promise<ChainReport> {
    return verifyRows(this.chainRows());
  }

  /** Every non-system event of $all, oldest first, as the chain covers it, with its stored hash (verify, export). */
  async *chainRows(): AsyncGenerator<StoredChainRow> {
    for await (const resolved of this.client.readAll({ fromPosition: START, direction: FORWARDS })) {
      const event = resolved.event;
      if (event && !isSystemEvent(event.type)) yield chainRowOf(event);
    }
  }

  private async currentRevision(stream: string): Promise<number | 'no_stream'> {
    try {
      for await (const resolved of this.client.readStream(stream, { fromRevision: END, direction: BACKWARDS, maxCount: 1 })) {
        if (resolved.event) return Number(resolved.event.revision);
      }
    } catch (error) {
      if (!(error instanceof StreamNotFoundError)) throw error;
    }
    return 'no_stream';
  }

  async readStream(stream: string, fromRevision = 0): Promise<StoredEvent[]> {
    return this.read(stream, BigInt(fromRevision));
  }

  /** Non-system events of $all strictly beyond `from` in `direction` (reads are inclusive, so the boundary is skipped). */
  private async *scan(from: Position, direction: Direction): AsyncGenerator<StoredEvent> {
    let boundary = from;
    for (;;) {
      const fromPosition = readPosition(boundary, direction === FORWARDS ? START : END);
      let count = 0;
      for await (const resolved of this.client.readAll({ fromPosition, direction, maxCount: CHUNK })) {
        count += 1;
        const event = resolved.event;
        if (!event) continue;
        const position = encodePosition(event.position);
        if (boundary !== '' && (direction === FORWARDS ? position <= boundary : position >= boundary)) continue;
        boundary = position;
        if (!isSystemEvent(event.type)) yield toStored(event);
      }
      if (count < CHUNK) return;
    }
  }

  async readAll(after: Position, limit: number): Promise<StoredEvent[]> {
    const out: StoredEvent[] = [];
    if (limit <= 0) return out;
    for await (const event of this.scan(after, FORWARDS)) {
      out.push(event);
      if (out.length >= limit) break;
    }
    return out;
  }

  async headPosition(): Promise<Position> {
    for await (const event of this.scan('', BACKWARDS)) return event.position;
    return '';
  }

  subscribeToAll(after: Position): Observable<StoredEvent> {
    return new Observable<StoredEvent>((subscriber) => {
      const subscription = this.client.subscribeToAll({ fromPosition: readPosition(after, START), filter: excludeSystemEvents() });
      let stopped = false;
      subscription.on('data', (resolved: AllStreamResolvedEvent) => {
        const event = resolved.event;
        if (stopped || !event || isSystemEvent(event.type)) return;
        let stored: StoredEvent;
        try {
          stored = toStored(event);
        } catch (error) {
          subscriber.error(error);
          return;
        }
        if (after !== '' && stored.position <= after) return;
        subscriber.next(stored);
      });
      subscription.on('error', (error: Error) => {
        if (!stopped) subscriber.error(error);
      });
      subscription.on('end', () => subscriber.complete());
      const onClose = (): void => subscriber.complete();
      this.closing.once('close', onClose);
      return () => {
        stopped = true;
        this.closing.off('close', onClose);
        const stop = subscription.unsubscribe().catch(() => undefined);
        this.stopping.add(stop);
        void stop.finally(() => this.stopping.delete(stop));
      };
    });
  }

  async close(): Promise<void> {
    this.closing.emit('close');
    await Promise.allSettled([...this.stopping]);
    await this.client.dispose();
  }
}
