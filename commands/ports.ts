import type { Observable } from 'rxjs';

/** A position in the global order of all events. Opaque, but ordered as a string. */
export type Position = string;

export const START: Position = '';

/** Who caused an event and from where: copied into the audit log. */
export type EventMetadata = {
  readonly actor_type: 'user' | 'apikey' | 'system';
  readonly actor: Readonly<Record<string, unknown>> | null;
  readonly ip_address: string | null;
  readonly referer: string | null;
  readonly timestamp: string;
};

export type NewEvent = {
  readonly id: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: EventMetadata;
};

export type StoredEvent = {
  readonly id: string;
  readonly stream: string;
  /** 0-based revision of the event inside its stream. */
  readonly revision: number;
  readonly position: Position;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: EventMetadata;
};

/** `no_stream`: the stream must not exist; `stream_exists`: it must; a number: its last revision. */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

export type AppendResult = {
  /** Revision of the last event now in the stream. */
  readonly revision: number;
  /** Global position of the last appended event. */
  readonly position: Position;
};

export class WrongExpectedRevision extends Error {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`stream ${stream}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevision';
  }
}

/** The first stored event whose hash does not match the chain recomputed up to it. */
export type ChainBreak = {
  readonly position: Position;
  readonly id: string;
  readonly stream: string;
  readonly revision: number;
  /** `hash_mismatch`: the row or one before it was changed, inserted or removed; `missing_hash`: the row has none. */
  readonly reason: 'hash_mismatch' | 'missing_hash';
};

/** The result of recomputing the SHA-256 chain of the global log from its first event. */
export type ChainReport = {
  readonly verified: boolean;
  /** Events checked (up to and including the break, if any). */
  readonly checked: number;
  readonly head_position: Position;
  /** The recomputed hash of the newest event checked: pin it to detect a rewrite of the whole chain later. */
  readonly head_hash: string | null;
  readonly first_break: ChainBreak | null;
};

export interface EventStore {
  /** Appends atomically. Retrying with the same event ids after a success returns the same result. */
  appendToStream(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /** Events of one stream from a revision on, oldest first; [] when the stream does not exist. */
  readStream(stream: string, fromRevision?: number): Promise<StoredEvent[]>;
  /** Up to `limit` events after `after` (exclusive) in global order. */
  readAll(after: Position, limit: number): Promise<StoredEvent[]>;
  /** Every event after `after` in global order, then new events as they are appended. */
  subscribeToAll(after: Position): Observable<StoredEvent>;
  /** The position of the newest event, or START. */
  headPosition(): Promise<Position>;
  /** Recomputes the tamper-evidence hash chain (stores that keep one). */
  verifyChain?(): Promise<ChainReport>;
  close(): Promise<void>;
}
