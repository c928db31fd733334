import { hash } from 'node:crypto';
import type { ChainBreak, ChainReport, Position, StoredEvent } from '../../commands/ports.js';

/** The "previous hash" of the first event of the log. */
export const GENESIS = '0'.repeat(64);

/** What a chained hash covers: every stored field of the event, as stored (data and metadata as JSON text). */
export type ChainedEvent = {
  readonly id: string;
  readonly stream: string;
  readonly revision: number;
  readonly type: string;
  readonly data: string;
  readonly metadata: string;
};

/**
 * SHA-256 over the previous event's hash and this event's fields (docs/decisions/0071), with
 * node's one-shot `hash` (no Hash stream object per event: docs/decisions/0290).
 */
export function chainHash(previous: string, event: ChainedEvent): string {
  const fields = [previous, event.id, event.stream, event.revision, event.type, event.data, event.metadata];
  return hash('sha256', JSON.stringify(fields), 'hex');
}

/** The chained hash of an event as read from the port (data and metadata as the store wrote their JSON text). */
export const chainHashOfEvent = (previous: string, event: StoredEvent): string =>
  chainHash(previous, { id: event.id, stream: event.stream, revision: event.revision, type: event.type, data: JSON.stringify(event.data), metadata: JSON.stringify(event.metadata) });

export type StoredChainRow = ChainedEvent & { readonly position: Position; readonly hash: string | null };

/**
 * Walks the log oldest first, recomputing each hash from the recomputed one before it (never
 * from the stored one), so the first changed, inserted or removed row is the first break.
 */
export class ChainVerifier {
  private previous = GENESIS;
  private checked = 0;
  private head: Position = '';
  private broken: ChainBreak | null = null;

  /** Checks the next row; false once the chain is broken (stop feeding it). */
  next(row: StoredChainRow): boolean {
    if (this.broken) return false;
    this.checked += 1;
    this.head = row.position;
    const expected = chainHash(this.previous, row);
    if (row.hash !== expected) {
      const { position, id, stream, revision } = row;
      this.broken = { position, id, stream, revision, reason: row.hash === null ? 'missing_hash' : 'hash_mismatch' };
      return false;
    }
    this.previous = expected;
    return true;
  }

  report(): ChainReport {
    return {
      verified: this.broken === null,
      checked: this.checked,
      head_position: this.head,
      head_hash: this.broken || this.checked === 0 ? null : this.previous,
      first_break: this.broken,
    };
  }
}
