import type { Position } from '../../commands/ports.js';
import type { Doc, Filter } from '../../projections/ports.js';

/** What a rebuild's read-model buffer writes out at a flush, in this order. */
export type BufferedWrites = {
  /** Bulk removals of earlier flushes' documents, in the order they happened. */
  readonly removals: readonly { readonly collection: string; readonly filter: Filter }[];
  /** collection → id → the document, or null once deleted. */
  readonly docs: ReadonlyMap<string, ReadonlyMap<string, Doc | null>>;
  /** consumer → the position its documents reflect. */
  readonly positions: ReadonlyMap<string, Position>;
  /** Nothing was written before (the first flush): deletions need not reach the store. */
  readonly fresh: boolean;
};

/** A store that takes a whole flush in one transaction (docs/decisions/0141); the SQLite read store does. */
export interface BatchWriter {
  writeBatch(writes: BufferedWrites): Promise<void>;
}

export const isBatchWriter = (store: object): store is BatchWriter => typeof (store as Partial<BatchWriter>).writeBatch === 'function';
