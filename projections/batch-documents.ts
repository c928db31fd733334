import type { Doc, Filter, FindOptions, ReadCollection, ReadStoreTx } from './ports.js';

type Entry = { doc: Doc | null; dirty: boolean };

/**
 * Marks a transaction whose collections already hold every document in memory and write them
 * once (a rebuild's buffer, infra/rebuild/buffered-read-store.ts): a batch over it would only
 * copy each document into a second map and out again (docs/decisions/0295).
 */
export const HOLDS_DOCUMENTS: unique symbol = Symbol('holds its documents in memory');

/**
 * A collection of such a transaction that answers from memory without waiting: a rebuild folds
 * every change of a document into the one it holds, and an `await` per read and write was most of
 * what the projections cost there (docs/decisions/0308).
 */
export interface HeldCollection<T extends Doc = Doc> extends ReadCollection<T> {
  /** The document held (null: none, or deleted), or undefined when only the store knows: then `get`. */
  peek(id: string): T | null | undefined;
  /** `upsert` (a document) or `delete` (null), done. */
  hold(id: string, doc: T | null): void;
}

export const isHeld = <T extends Doc>(collection: ReadCollection<T>): collection is HeldCollection<T> => typeof (collection as Partial<HeldCollection<T>>).peek === 'function';

/** The transaction a projection batch works in: `tx` itself when it holds its documents, else a BatchDocuments over it. */
export function batchOver(tx: ReadStoreTx): ReadStoreTx & { flush(): Promise<void> } {
  if (!(HOLDS_DOCUMENTS in tx)) return new BatchDocuments(tx);
  return { collection: <T extends Doc>(name: string) => tx.collection<T>(name), flush: async () => {} };
}

/**
 * The documents one projection batch touches, kept in memory for the batch: each is read from
 * the store once and written once, when the batch ends (`flush`), however many of its events
 * change it (docs/decisions/0194). A resource create changes its resource document and its
 * environment's usage counters several times; the store sees one write of each. Queries and
 * bulk deletions write what is pending first, so they see the batch as it is.
 */
export class BatchDocuments implements ReadStoreTx {
  private readonly entries = new Map<string, Map<string, Entry>>();
  /** Collections the batch deleted from by filter. */
  private readonly removedFrom = new Set<string>();

  constructor(private readonly tx: ReadStoreTx) {}

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    return new BatchCollection<T>(this, name, this.tx.collection<T>(name));
  }

  /** The batch's entries of one collection. */
  of(name: string): Map<string, Entry> {
    let entries = this.entries.get(name);
    if (!entries) {
      entries = new Map();
      this.entries.set(name, entries);
    }
    return entries;
  }

  /** Forgets a collection's entries (after a bulk deletion the store is the truth again). */
  forget(name: string): void {
    this.entries.delete(name);
    this.removedFrom.add(name);
  }

  /**
   * After `flush`: the documents of `name` the batch read or wrote, frozen (null: none stored),
   * which is what the store holds for those ids once the batch commits; and whether the batch
   * deleted from it by filter (docs/decisions/0296).
   */
  held(name: string): { readonly docs: ReadonlyMap<string, Doc | null>; readonly removed: boolean } {
    const docs = new Map<string, Doc | null>();
    for (const [id, entry] of this.entries.get(name) ?? []) docs.set(id, entry.doc === null ? null : Object.freeze(entry.doc));
    return { docs, removed: this.removedFrom.has(name) };
  }

  /** Writes every changed document to the store. */
  async flush(): Promise<void> {
    for (const [name, entries] of this.entries) {
      const target = this.tx.collection(name);
      for (const [id, entry] of entries) {
        if (!entry.dirty) continue;
        entry.dirty = false;
        if (entry.doc === null) await target.delete(id);
        else await target.upsert(entry.doc);
      }
    }
  }
}

class BatchCollection<T extends Doc> implements ReadCollection<T> {
  constructor(
    private readonly batch: BatchDocuments,
    private readonly name: string,
    private readonly store: ReadCollection<T>,
  ) {}

  async get(id: string): Promise<T | null> {
    const entries = this.batch.of(this.name);
    const known = entries.get(id);
    if (known) return known.doc as T | null;
    const doc = await this.store.get(id);
    entries.set(id, { doc, dirty: false });
    return doc;
  }

  async upsert(doc: T): Promise<void> {
    this.batch.of(this.name).set(doc._id, { doc, dirty: true });
  }

  async delete(id: string): Promise<void> {
    this.batch.of(this.name).set(id, { doc: null, dirty: true });
  }

  async find(filter?: Filter, options?: FindOptions): Promise<T[]> {
    await this.batch.flush();
    return this.store.find(filter, options);
  }

  async count(filter?: Filter): Promise<number> {
    await this.batch.flush();
    return this.store.count(filter);
  }

  async deleteMany(filter: Filter): Promise<number> {
    await this.batch.flush();
    this.batch.forget(this.name);
    return this.store.deleteMany(filter);
  }
}
