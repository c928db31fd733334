import {
  ANY,
  NO_STREAM,
  STREAM_EXISTS,
  jsonEvent,
  type AllStreamRecordedEvent,
  type AppendExpectedRevision,
  type CurrentRevision,
  type EventData,
  type JSONType,
  type RecordedEvent,
} from '@eventstore/db-client';
import type { EventMetadata, ExpectedRevision, NewEvent, StoredEvent } from '../../commands/ports.js';
import { withoutHash } from './hash-chain.js';
import { encodePosition } from './position.js';

/** Our expected revision as the client's. */
export function toExpected(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return BigInt(expected);
  }
}

export const fromCurrent = (current: CurrentRevision): number | 'no_stream' =>
  current === NO_STREAM || current < 0n ? 'no_stream' : Number(current);

/** Our id becomes the ESDB event id, so a retried append is idempotent; metadata is ESDB metadata. */
export const toEventData = (event: NewEvent): EventData =>
  jsonEvent({
    id: event.id,
    type: event.type,
    // JSON.stringify'd by the client like any JSON value.
    data: event.data as JSONType,
    metadata: event.metadata,
  });

export const isSystemEvent = (type: string): boolean => type.startsWith('$');

export function toStored(event: RecordedEvent | AllStreamRecordedEvent): StoredEvent {
  if (!event.position) throw new Error('EventStoreDB did not return event positions (server older than 22.6?)');
  return {
    id: event.id,
    stream: event.streamId,
    revision: Number(event.revision),
    position: encodePosition(event.position),
    type: event.type,
    data: event.data,
    // The chained hash (docs/decisions/0071) stays in the store: readers get the metadata that was written.
    metadata: withoutHash(event.metadata) as EventMetadata,
  };
}

/** Whether `stored` are exactly the events of `events`, in order (ids compared case-insensitively). */
export const sameIds = (stored: readonly StoredEvent[], events: readonly NewEvent[]): boolean =>
  stored.length === events.length && stored.every((e, i) => e.id.toLowerCase() === events[i]?.id.toLowerCase());
