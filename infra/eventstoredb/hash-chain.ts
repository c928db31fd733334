import type { AllStreamRecordedEvent } from '@eventstore/db-client';
import type { ChainReport, ExpectedRevision, NewEvent } from '../../commands/ports.js';
import { ChainVerifier, chainHash, GENESIS, type StoredChainRow } from '../audit/hash-chain.js';
import { encodePosition } from './position.js';

/** The metadata key that carries an event's chained hash on EventStoreDB (docs/decisions/0071). */
export const HASH_KEY = '$hash';

type Metadata = Record<string, unknown>;

/** The metadata without the hash: what the hash covers, and what readers get. */
export function withoutHash(metadata: unknown): Metadata {
  const { [HASH_KEY]: _hash, ...rest } = (metadata ?? {}) as Metadata;
  return rest;
}

export const hashOf = (metadata: unknown): string | null => {
  const value = (metadata as Metadata | null)?.[HASH_KEY];
  return typeof value === 'string' ? value : null;
};

/** The revision the first appended event will get, when the expected revision tells it. */
export function firstRevision(expected: ExpectedRevision, current: number | 'no_stream'): number {
  if (typeof expected === 'number') return expected + 1;
  return current === 'no_stream' ? 0 : current + 1;
}

/** The events with their chained hash in the metadata; `last` is the hash of the last one. */
export function chainEvents(events: readonly NewEvent[], stream: string, first: number, previous: string): { events: NewEvent[]; last: string } {
  let last = previous;
  const chained = events.map((event, i) => {
    const hash = chainHash(last, {
      id: event.id.toLowerCase(),
      stream,
      revision: first + i,
      type: event.type,
      data: JSON.stringify(event.data),
      metadata: JSON.stringify(event.metadata),
    });
    last = hash;
    return { ...event, metadata: { ...event.metadata, [HASH_KEY]: hash } } as NewEvent;
  });
  return { events: chained, last };
}

/** A recorded event as the verifier reads it. */
export const chainRowOf = (event: AllStreamRecordedEvent): StoredChainRow => ({
  position: encodePosition(event.position),
  id: event.id.toLowerCase(),
  stream: event.streamId,
  revision: Number(event.revision),
  type: event.type,
  data: JSON.stringify(event.data),
  metadata: JSON.stringify(withoutHash(event.metadata)),
  hash: hashOf(event.metadata),
});

/**
 * Verifies $all from its first hashed event: events written before the chain existed (no hash
 * at all, at the start of the log) are skipped, every later one must chain.
 */
export async function verifyRows(rows: AsyncIterable<StoredChainRow>): Promise<ChainReport> {
  const verifier = new ChainVerifier();
  let started = false;
  for await (const row of rows) {
    if (!started && row.hash === null) continue;
    started = true;
    if (!verifier.next(row)) break;
  }
  return verifier.report();
}

export { GENESIS };
