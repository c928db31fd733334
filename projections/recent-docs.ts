import type { Doc } from './ports.js';

/**
 * The documents of one read-model collection that the last two committed batches left, by id
 * (docs/decisions/0296): a `wait=true` write is answered from the batch that applied it
 * instead of reading the document back from the store. Two batches, because the answer comes
 * once every runner has applied the write, and the read models may have committed one more
 * batch by then. Each entry is what the store holds for that id until a later batch writes it:
 * the batch read or wrote it, and a later batch replaces the generation first. A batch that
 * removed documents by filter drops the older generation (its ids may be gone). An id not
 * held is answered `undefined`: read the store.
 */
export class RecentDocs {
  private current: ReadonlyMap<string, Doc | null> = new Map();
  private previous: ReadonlyMap<string, Doc | null> = new Map();

  constructor(readonly collection: string) {}

  /** After a batch committed: the collection's documents it read or wrote (null: none stored); `removed` when it deleted by filter. */
  committed(docs: ReadonlyMap<string, Doc | null>, removed: boolean): void {
    this.previous = removed ? new Map() : this.current;
    this.current = docs;
  }

  /** The document as the last batches left it, null when they left none; undefined when they did not touch it. */
  get(id: string): Doc | null | undefined {
    const doc = this.current.get(id);
    if (doc !== undefined || this.current.has(id)) return doc;
    return this.previous.get(id);
  }

  /** Holds nothing (a batch whose outcome is unknown). */
  forget(): void {
    this.current = new Map();
    this.previous = new Map();
  }
}
