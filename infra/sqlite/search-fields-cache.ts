import type { SearchField } from '../../projections/search-fields.js';
import type { DataVersionLook } from './data-version-look.js';

/** Collections whose fields are kept at most; past it the cache starts again. */
const MAX_COLLECTIONS = 10_000;

/**
 * The search fields of each collection as a reading connection last read them (two `search_meta`
 * rows), kept while no other connection has committed to the file: SQLite's `PRAGMA
 * data_version` moves on every commit of another connection (the projection's writer, another
 * process), so a schema change is seen by the first search after it (docs/decisions/0260).
 * Only for a connection that never writes `search_meta` itself: its own commits do not move it.
 * The value it reads is lent to the text index's look of the same search (data-version-look.ts).
 */
export class SearchFieldsCache {
  private seen = -1;
  private readonly fields = new Map<string, SearchField[]>();

  constructor(private readonly version: DataVersionLook) {}

  async get(env: string, folder: string, read: () => Promise<SearchField[]>): Promise<SearchField[]> {
    const version = this.version.read();
    if (version !== this.seen || this.fields.size >= MAX_COLLECTIONS) {
      this.fields.clear();
      this.seen = version;
    }
    const id = `${env}\u0000${folder}`;
    let fields = this.fields.get(id);
    if (fields === undefined) {
      fields = await read();
      // A commit while reading (the reads are synchronous, but the caller may not be) leaves it for the next search.
      if (this.version.peek() === version) this.fields.set(id, fields);
    }
    return fields;
  }
}
