import type { DeliveryDoc, SearchIndexTx, SearchEntries } from '../../projections/ports.js';
import { docId } from './mapping.js';

/** What one unit of work writes, buffered until its bulk request. */
export type UnitWrites = {
  /** Documents by id: the document to index, or null to delete it. */
  readonly pending: Map<string, DeliveryDoc | null>;
  /** Search entries of pending documents (indexing a document again drops them). */
  readonly searches: Map<string, SearchEntries>;
  /** Collections whose documents are all removed (by query, before the bulk write), as `[env, folder]`. */
  readonly cleared: Map<string, readonly [string, string]>;
  /** Search metadata: id to JSON value, null to delete. */
  readonly meta: Map<string, unknown>;
};

export const emptyWrites = (): UnitWrites => ({ pending: new Map(), searches: new Map(), cleared: new Map(), meta: new Map() });

/** The unit of work's view: its own writes over what is stored. */
export class BufferedWriter implements SearchIndexTx {
  constructor(
    private readonly writes: UnitWrites,
    private readonly fetch: (id: string) => Promise<DeliveryDoc | null>,
    private readonly loadMeta: (id: string) => Promise<unknown> = async () => null,
  ) {}

  async meta(id: string): Promise<unknown> {
    return this.writes.meta.has(id) ? this.writes.meta.get(id) : this.loadMeta(id);
  }

  async setMeta(id: string, value: unknown): Promise<void> {
    this.writes.meta.set(id, value ?? null);
  }

  /** Replaces the search entries of a document (written with it: a stored one is indexed again). */
  async indexSearch(env: string, folder: string, key: string, entries: SearchEntries): Promise<void> {
    const doc = await this.get(env, folder, key);
    if (!doc) return;
    const id = docId(env, folder, key);
    this.writes.pending.set(id, doc);
    this.writes.searches.set(id, entries);
  }

  async get(env: string, folder: string, key: string): Promise<DeliveryDoc | null> {
    const id = docId(env, folder, key);
    if (this.writes.pending.has(id)) return this.writes.pending.get(id) ?? null;
    return this.writes.cleared.has(docId(env, folder, '')) ? null : this.fetch(id);
  }

  async removeFolder(env: string, folder: string): Promise<void> {
    const prefix = docId(env, folder, '');
    this.writes.cleared.set(prefix, [env, folder]);
    for (const id of this.writes.pending.keys()) {
      if (!id.startsWith(prefix)) continue;
      this.writes.pending.set(id, null);
      this.writes.searches.delete(id);
    }
  }

  async index(doc: DeliveryDoc): Promise<void> {
    const id = docId(doc.env, doc.folder, doc.key);
    this.writes.pending.set(id, doc);
    this.writes.searches.delete(id);
  }

  async remove(env: string, folder: string, key: string): Promise<void> {
    const id = docId(env, folder, key);
    this.writes.pending.set(id, null);
    this.writes.searches.delete(id);
  }
}
