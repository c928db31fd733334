import type { DeliveryDoc, SearchIndexTx, SearchEntries } from './ports.js';

type Entry = { readonly env: string; readonly folder: string; readonly key: string; doc: DeliveryDoc | null; dirty: boolean };

const idOf = (env: string, folder: string, key: string): string => `${env}\u0000${folder}\u0000${key}`;

/**
 * The delivery documents one projection batch touches, kept in memory for the batch (as
 * `BatchDocuments` does for read models, docs/decisions/0194): a resource create indexes its
 * document twice (created, then its first revision published); the index sees one write.
 * A document's pending write reaches the index before its search entries are written (they
 * need its row, and indexing a document clears them), and every pending write before a whole
 * collection is removed; the order of the writes of each document is kept.
 */
export class BatchDelivery implements SearchIndexTx {
  private readonly entries = new Map<string, Entry>();
  /**
   * The search metadata this batch read, by id, until it sets it: every published document of a
   * collection reads the collection's fields, once per batch instead of once each (docs/decisions/0326).
   */
  private readonly metas = new Map<string, Promise<unknown>>();

  constructor(private readonly tx: SearchIndexTx) {}

  async get(env: string, folder: string, key: string): Promise<DeliveryDoc | null> {
    const id = idOf(env, folder, key);
    const known = this.entries.get(id);
    if (known) return known.doc;
    const doc = await this.tx.get(env, folder, key);
    this.entries.set(id, { env, folder, key, doc, dirty: false });
    return doc;
  }

  async index(doc: DeliveryDoc): Promise<void> {
    this.entries.set(idOf(doc.env, doc.folder, doc.key), { env: doc.env, folder: doc.folder, key: doc.key, doc, dirty: true });
  }

  async remove(env: string, folder: string, key: string): Promise<void> {
    this.entries.set(idOf(env, folder, key), { env, folder, key, doc: null, dirty: true });
  }

  async removeFolder(env: string, folder: string): Promise<void> {
    await this.flush();
    this.entries.clear();
    await this.tx.removeFolder(env, folder);
  }

  meta(id: string): Promise<unknown> {
    let value = this.metas.get(id);
    if (value === undefined) {
      value = this.tx.meta(id);
      this.metas.set(id, value);
    }
    return value;
  }

  setMeta(id: string, value: unknown): Promise<void> {
    this.metas.delete(id);
    return this.tx.setMeta(id, value);
  }

  async indexSearch(env: string, folder: string, key: string, entries: SearchEntries): Promise<void> {
    const entry = this.entries.get(idOf(env, folder, key));
    if (entry) await this.write(entry);
    await this.tx.indexSearch(env, folder, key, entries);
  }

  private async write(entry: Entry): Promise<void> {
    if (!entry.dirty) return;
    entry.dirty = false;
    if (entry.doc === null) await this.tx.remove(entry.env, entry.folder, entry.key);
    else await this.tx.index(entry.doc);
  }

  /** Writes every changed document to the index. */
  async flush(): Promise<void> {
    for (const entry of this.entries.values()) await this.write(entry);
  }
}
