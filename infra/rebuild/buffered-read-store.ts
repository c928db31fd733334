import type { Position } from '../../commands/ports.js';
import { HOLDS_DOCUMENTS, type HeldCollection } from '../../projections/batch-documents.js';
import { matchesFilter } from '../../projections/filter-match.js';
import { isBatchWriter } from './buffered-writes.js';
import type { Doc, Filter, ReadCollection, ReadStore, ReadStoreTx } from '../../projections/ports.js';

/** Documents held before they are written out (a rebuild of the embedded default usually fits whole). */
const FLUSH_AT = 200_000;

/**
 * A write-back buffer over a rebuild's fresh read store: projections read and write documents
 * in memory, and each document is written once per flush instead of once per event
 * (docs/decisions/0073). Bulk removals are applied to the buffer at once and to the store,
 * in order, before the buffered writes of the next flush.
 */
export class BufferedReadStore implements ReadStore {
  /** collection → id → document, or null once deleted. */
  private readonly buffer = new Map<string, Map<string, Doc | null>>();
  private removals: { readonly collection: string; readonly filter: Filter }[] = [];
  private readonly positions = new Map<string, Position>();
  private size = 0;
  private flushed = false;
  private readonly views = new Map<string, HeldCollection<Doc>>();
  /** Its documents are in memory already: projections need no batch of their own over it (docs/decisions/0295). */
  private readonly tx: ReadStoreTx & { readonly [HOLDS_DOCUMENTS]: true } = { collection: <T extends Doc>(name: string) => this.view(name) as unknown as ReadCollection<T>, [HOLDS_DOCUMENTS]: true };

  /**
   * `written`: the store already holds documents of an earlier run (a catch-up), so reads of
   * documents not buffered go to it. `writeThrough`: collections whose documents are written once
   * and never read, changed or removed again (the audit log: one entry per event, keyed by it),
   * written out at the end of each unit of work instead of held (docs/decisions/0250).
   */
  constructor(
    private readonly inner: ReadStore,
    private readonly flushAt = FLUSH_AT,
    written = false,
    private readonly writeThrough: ReadonlySet<string> = new Set(),
  ) {
    this.flushed = written;
  }

  private docs(collection: string): Map<string, Doc | null> {
    let docs = this.buffer.get(collection);
    if (!docs) this.buffer.set(collection, (docs = new Map()));
    return docs;
  }

  private view(name: string): HeldCollection<Doc> {
    let view = this.views.get(name);
    if (!view) this.views.set(name, (view = this.makeView(name)));
    return view;
  }

  private makeView<T extends Doc>(name: string): HeldCollection<T> {
    const docs = this.docs(name);
    const unsupported = (): never => {
      throw new Error('a rebuild buffer only gets, writes and deletes');
    };
    // The size counts documents held, not writes: a counter written at every event is one document.
    const hold = (id: string, doc: T | null): void => {
      if (!docs.has(id)) this.size += 1;
      docs.set(id, doc);
    };
    return {
      // Before the first flush the buffer is the whole store: what it does not hold does not exist.
      peek: (id) => (docs.has(id) ? ((docs.get(id) ?? null) as T | null) : this.flushed ? undefined : null),
      hold,
      get: async (id) => {
        if (docs.has(id)) return (docs.get(id) ?? null) as T | null;
        if (!this.flushed) return null;
        const stored = await this.inner.collection<T>(name).get(id);
        return stored && !this.removals.some((r) => r.collection === name && matchesFilter(stored, r.filter)) ? stored : null;
      },
      upsert: async (doc) => hold(doc._id, doc),
      delete: async (id) => hold(id, null),
      deleteMany: async (filter) => {
        let removed = 0;
        for (const [id, doc] of docs) {
          if (doc && matchesFilter(doc, filter)) {
            docs.set(id, null);
            removed += 1;
          }
        }
        if (this.flushed) this.removals.push({ collection: name, filter });
        return removed;
      },
      find: unsupported,
      count: unsupported,
    };
  }

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    return this.inner.collection<T>(name);
  }

  ensureIndex(collection: string, fields: readonly string[]): Promise<void> {
    return this.inner.ensureIndex(collection, fields);
  }

  async unitOfWork(consumer: string, position: Position, work: (tx: ReadStoreTx) => Promise<void>): Promise<void> {
    await work(this.tx);
    this.positions.set(consumer, position);
    await this.writeOut();
    if (this.size >= this.flushAt) await this.flush();
  }

  /** Writes the write-through collections' new documents (without positions: those go with the next flush). */
  private async writeOut(): Promise<void> {
    if (this.writeThrough.size === 0 || !isBatchWriter(this.inner)) return;
    const docs = new Map<string, Map<string, Doc | null>>();
    for (const name of this.writeThrough) {
      const held = this.buffer.get(name);
      if (held && held.size > 0) docs.set(name, new Map(held));
    }
    if (docs.size === 0) return;
    await this.inner.writeBatch({ removals: [], docs, positions: new Map(), fresh: true });
    for (const [name, written] of docs) {
      this.size -= written.size;
      this.buffer.get(name)!.clear();
    }
  }

  async checkpoint(consumer: string): Promise<Position> {
    return this.positions.get(consumer) ?? this.inner.checkpoint(consumer);
  }

  /** Writes the buffer out: the removals, then every buffered document, then each consumer's position. */
  async flush(): Promise<void> {
    if (isBatchWriter(this.inner)) {
      await this.inner.writeBatch({ removals: this.removals, docs: this.buffer, positions: this.positions, fresh: !this.flushed });
      this.cleared();
      return;
    }
    const consumers = [...this.positions];
    for (const [index, [consumer, position]] of consumers.entries()) {
      await this.inner.unitOfWork(consumer, position, async (tx) => {
        if (index > 0) return;
        for (const removal of this.removals) await tx.collection(removal.collection).deleteMany(removal.filter);
        for (const [name, docs] of this.buffer) {
          const collection = tx.collection(name);
          for (const [id, doc] of docs) {
            if (doc) await collection.upsert(doc);
            else if (this.flushed) await collection.delete(id);
          }
        }
      });
    }
    this.cleared();
  }

  private cleared(): void {
    for (const docs of this.buffer.values()) docs.clear();
    this.removals = [];
    this.size = 0;
    this.flushed = true;
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
