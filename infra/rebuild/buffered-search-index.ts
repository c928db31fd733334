import type { Position } from '../../commands/ports.js';
import type { DeliveryQuery } from '../../projections/delivery-query.js';
import type { DeliveryDoc, Page, PageRequest, SearchIndex, SearchIndexTx } from '../../projections/ports.js';

/** Writes the rebuilt documents and each consumer's position into the (empty) index at once. */
export type DeliveryBulkLoad = (docs: Iterable<DeliveryDoc>, positions: ReadonlyMap<string, Position>) => Promise<void>;

/** Keys never hold a NUL character, so it separates the parts of a buffer key. */
const id = (env: string, folder: string, key: string): string => `${env}\u0000${folder}\u0000${key}`;

/**
 * A write-back buffer over a rebuild's fresh delivery index, as BufferedReadStore is for the
 * read models: each document is indexed once instead of once per event. It holds the whole
 * index until `flush`, which a rebuild calls once, at its end (docs/decisions/0073).
 */
export class BufferedSearchIndex implements SearchIndex {
  private readonly buffer = new Map<string, { readonly env: string; readonly folder: string; readonly key: string; readonly doc: DeliveryDoc | null }>();
  private readonly positions = new Map<string, Position>();
  private flushed = false;

  /** `load` replaces the unit-of-work writes of `flush` by one bulk load (docs/decisions/0141). */
  constructor(
    private readonly inner: SearchIndex,
    private readonly load?: DeliveryBulkLoad,
  ) {}

  private readonly tx: SearchIndexTx = {
    get: async (env, folder, key) => {
      if (this.flushed) throw new Error('the rebuild buffer was flushed already');
      return this.buffer.get(id(env, folder, key))?.doc ?? null;
    },
    index: async (doc) => {
      this.buffer.set(id(doc.env, doc.folder, doc.key), { env: doc.env, folder: doc.folder, key: doc.key, doc });
    },
    remove: async (env, folder, key) => {
      this.buffer.set(id(env, folder, key), { env, folder, key, doc: null });
    },
    removeFolder: async (env, folder) => {
      for (const [k, entry] of this.buffer) if (entry.env === env && entry.folder === folder) this.buffer.set(k, { ...entry, doc: null });
    },
  };

  get(env: string, folder: string, key: string): Promise<DeliveryDoc | null> {
    return this.inner.get(env, folder, key);
  }

  list(env: string, folder: string, page: PageRequest): Promise<Page> {
    return this.inner.list(env, folder, page);
  }

  query(env: string, folder: string, query: DeliveryQuery): Promise<Page> {
    return this.inner.query(env, folder, query);
  }

  async unitOfWork(consumer: string, position: Position, work: (tx: SearchIndexTx) => Promise<void>): Promise<void> {
    await work(this.tx);
    this.positions.set(consumer, position);
  }

  async checkpoint(consumer: string): Promise<Position> {
    return this.positions.get(consumer) ?? this.inner.checkpoint(consumer);
  }

  /** Writes every document still there into the (empty) index with each consumer's position; once. */
  async flush(): Promise<void> {
    if (this.flushed) return;
    this.flushed = true;
    if (this.load) {
      await this.load(this.documents(), this.positions);
      this.buffer.clear();
      return;
    }
    for (const [consumer, position] of this.positions) {
      await this.inner.unitOfWork(consumer, position, async (tx) => {
        for (const { doc } of this.buffer.values()) if (doc) await tx.index(doc);
      });
      this.buffer.clear();
    }
  }

  private *documents(): Iterable<DeliveryDoc> {
    for (const { doc } of this.buffer.values()) if (doc) yield doc;
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
