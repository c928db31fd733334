import type { Position } from '../../commands/ports.js';
import type { DeliveryQuery } from '../../projections/delivery-query.js';
import type { DeliveryDoc, Page, PageRequest, SearchIndex, SearchIndexTx, Scored, SearchEntries, TextQuery, VectorQuery } from '../../projections/ports.js';
import type { SearchField } from '../../projections/search-fields.js';

/**
 * Writes the rebuilt documents and each consumer's position into the (empty) index at once,
 * and opens the loaded index for the search entries and metadata, written after the documents.
 */
export type DeliveryBulkLoad = (docs: Iterable<DeliveryDoc>, positions: ReadonlyMap<string, Position>) => Promise<SearchIndex>;

/** Keys never hold a NUL character, so it separates the parts of a buffer key. */
const id = (env: string, folder: string, key: string): string => `${env}\u0000${folder}\u0000${key}`;

/**
 * A write-back buffer over a rebuild's fresh delivery index, as BufferedReadStore is for the
 * read models: each document is indexed once instead of once per event. It holds the whole
 * index until `flush`, which a rebuild calls once, at its end (docs/decisions/0073).
 */
export class BufferedSearchIndex implements SearchIndex {
  private readonly buffer = new Map<string, { readonly env: string; readonly folder: string; readonly key: string; readonly doc: DeliveryDoc | null; readonly entries?: SearchEntries }>();
  /** The projection's own small values (its knowledge of the schemas), by id. */
  private readonly metas = new Map<string, unknown>();
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
      for (const [k, entry] of this.buffer) if (entry.env === env && entry.folder === folder) this.buffer.set(k, { env, folder, key: entry.key, doc: null });
    },
    meta: async (id) => (this.metas.has(id) ? this.metas.get(id) : null),
    setMeta: async (id, value) => {
      this.metas.set(id, value);
    },
    // Re-indexing a document cleared its entries (index above keeps none); these replace them.
    indexSearch: async (env, folder, key, entries) => {
      const at = this.buffer.get(id(env, folder, key));
      if (at?.doc) this.buffer.set(id(env, folder, key), { ...at, entries });
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

  searchText(env: string, folder: string, query: TextQuery): Promise<Scored[]> {
    return this.inner.searchText(env, folder, query);
  }

  searchVectors(env: string, folder: string, query: VectorQuery): Promise<Scored[]> {
    return this.inner.searchVectors(env, folder, query);
  }

  docsByKeys(env: string, folder: string, keys: readonly string[]): Promise<DeliveryDoc[]> {
    return this.inner.docsByKeys(env, folder, keys);
  }

  searchFields(env: string, folder: string): Promise<SearchField[]> {
    return this.inner.searchFields(env, folder);
  }

  vectorsSize(env: string, folder: string, key: string): Promise<number> {
    return this.inner.vectorsSize(env, folder, key);
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
      const loaded = await this.load(this.documents(), this.positions);
      try {
        await this.writeSearch(loaded);
      } finally {
        await loaded.close();
      }
      this.metas.clear();
      this.buffer.clear();
      return;
    }
    for (const [consumer, position] of this.positions) {
      await this.inner.unitOfWork(consumer, position, async (tx) => {
        for (const [metaId, value] of this.metas) await tx.setMeta(metaId, value);
        for (const { doc, entries } of this.buffer.values()) {
          if (!doc) continue;
          await tx.index(doc);
          if (entries) await tx.indexSearch(doc.env, doc.folder, doc.key, entries);
        }
      });
      this.metas.clear();
      this.buffer.clear();
    }
  }

  /** The metadata and the search entries of the bulk-loaded documents, in one unit of work at the first consumer's position (already saved). */
  private async writeSearch(target: SearchIndex): Promise<void> {
    const [first] = this.positions;
    // A loaded document has no search rows yet: empty entries would only clear nothing.
    const searched = [...this.buffer.values()].filter((entry) => entry.doc && entry.entries && (entry.entries.texts.length > 0 || entry.entries.vectors.length > 0));
    if (!first || (this.metas.size === 0 && searched.length === 0)) return;
    await target.unitOfWork(first[0], first[1], async (tx) => {
      for (const [metaId, value] of this.metas) await tx.setMeta(metaId, value);
      for (const { env, folder, key, entries } of searched) await tx.indexSearch(env, folder, key, entries!);
    });
  }

  private *documents(): Iterable<DeliveryDoc> {
    for (const { doc } of this.buffer.values()) if (doc) yield doc;
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
