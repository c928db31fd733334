import { openSqlite, type SqliteDb } from './open.js';
import { prepared } from './statement-cache.js';
import { VectorBlock, type VectorHit } from './vector-block.js';

/**
 * Every insert and delete of a vector row, in order: a connection holding vectors in memory
 * catches up from it (docs/decisions/0205). Only the last VECTOR_CHANGES_KEPT are kept: a copy
 * further behind is dropped and loaded again.
 */
export const VECTOR_CHANGES_SCHEMA = `
CREATE TABLE IF NOT EXISTS vec_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, vrow INTEGER NOT NULL, dims INTEGER NOT NULL);
`;
export const VECTOR_CHANGES_KEPT = 50_000;
/**
 * Float32 bytes of vectors one connection keeps in memory, over every partition it has searched
 * (docs/decisions/0301). 100,000 vectors of 384 dimensions take about 150 MB.
 */
export const VECTOR_MEMORY_BYTES = 256 * 1024 * 1024;
/** Rows a background load reads between two turns of the event loop. */
const SLICE = 2_000;

/** One partition's blocks, by locale. */
type Partition = Map<string, VectorBlock>;
type Stored = { vrow: number; locale: string; embedding: Uint8Array | string; doc: number };

const partitionId = (dims: number, scope: string): string => `${dims}\u0000${scope}`;

/**
 * In-memory copies of the vector partitions a connection has searched, loaded in the background
 * on first use (searches go to sqlite-vec meanwhile) and kept current from `vec_changes` before
 * each search: the same rows sqlite-vec holds, scanned exactly by a SIMD kernel.
 */
export class VectorCache {
  private readonly partitions = new Map<string, { readonly dims: number; readonly blocks: Partition }>();
  /** Partitions being loaded, and those loaded at a change older than the last one applied. */
  private readonly loading = new Map<string, Promise<void>>();
  private readonly behind = new Map<string, number>();
  /** `PRAGMA data_version` when this copy was last brought up to date: unchanged, nothing was committed since. */
  private version: number | null = null;
  /** The last change applied. */
  private seq = 0;
  /** When each loaded partition was last searched (a count of searches), for evicting the least recent. */
  private readonly used = new Map<string, number>();
  private searches = 0;
  /** Partitions over the whole budget: not loaded again until the service restarts; sqlite-vec answers them. */
  private readonly oversized = new Set<string>();

  /** `budget`: the float32 bytes kept in memory; checked each time a partition is loaded. */
  constructor(
    private readonly db: SqliteDb,
    private readonly budget = VECTOR_MEMORY_BYTES,
  ) {}

  private sql(text: string) {
    return prepared(this.db, text);
  }

  /** Runs `work` in one read transaction, after bringing the loaded partitions up to date. */
  read<T>(work: () => T): T {
    const version = this.db.pragma('data_version', { simple: true }) as number;
    const outer = this.db.inTransaction;
    if (!outer) this.db.exec('BEGIN');
    try {
      if (version !== this.version) {
        this.catchUp();
        this.version = version;
      }
      this.catchUpLoaded();
      return work();
    } finally {
      if (!outer && this.db.inTransaction) this.db.exec('COMMIT');
    }
  }

  /** Whether a partition is in memory; if not, its loading starts (on a connection of its own, a slice at a time). */
  ready(dims: number, scope: string): boolean {
    const id = partitionId(dims, scope);
    if (this.partitions.has(id)) {
      this.used.set(id, ++this.searches);
      return true;
    }
    if (!this.oversized.has(id) && !this.loading.has(id)) {
      // A load that fails (the file gone, say) is tried again on the next search; sqlite-vec answers meanwhile.
      const load = this.load(dims, scope, id)
        .catch(() => undefined)
        .finally(() => this.loading.delete(id));
      this.loading.set(id, load);
    }
    return false;
  }

  /** Resolves when the partitions being loaded are in memory (or failed to load: they are tried again on their next search). */
  async loaded(): Promise<void> {
    await Promise.all(this.loading.values());
  }

  /** The k rows of a ready partition nearest a unit query vector, in `locale` and locale '' (every locale for null). */
  nearest(dims: number, scope: string, locale: string | null, query: Float32Array, k: number): VectorHit[] {
    const blocks = this.partitions.get(partitionId(dims, scope))?.blocks ?? new Map<string, VectorBlock>();
    const searched = locale === null ? [...blocks.values()] : [...new Set([blocks.get(locale), blocks.get('')])];
    const hits = searched.flatMap((block) => block?.nearest(query, k) ?? []);
    if (searched.length > 1) hits.sort((a, b) => a.distance - b.distance || a.vrow - b.vrow);
    return hits.slice(0, k);
  }

  /** Vectors held in memory: rows and float32 bytes. */
  stats(): { rows: number; bytes: number } {
    let rows = 0;
    let bytes = 0;
    for (const { blocks } of this.partitions.values()) {
      for (const block of blocks.values()) {
        rows += block.size;
        bytes += block.bytes;
      }
    }
    return { rows, bytes };
  }

  /**
   * Reads a partition in one snapshot of a connection of its own, yielding to the event loop
   * every SLICE rows (100,000 vectors take about a second of CPU), and notes the last change
   * that snapshot holds: the next search brings it up to date.
   */
  private async load(dims: number, scope: string, id: string): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve)); // not within the search that asked
    const db = openSqlite(this.db.name, { readonly: true, vectors: true });
    try {
      db.exec('BEGIN');
      const { last } = db.prepare('SELECT MAX(seq) AS last FROM vec_changes').get() as { last: number | null };
      const blocks: Partition = new Map();
      // As hex text: 100,000 blobs would each be a buffer for the collector, and the resident peak would show them.
      const rows = db.prepare(`SELECT rowid AS vrow, locale, hex(embedding) AS embedding, doc FROM vec_${dims} WHERE scope = ?`).iterate(scope) as IterableIterator<Stored>;
      let count = 0;
      for (const row of rows) {
        blockOf(blocks, dims, row.locale).put(row.vrow, row.doc, row.embedding);
        if (++count % SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      db.exec('COMMIT');
      for (const block of blocks.values()) block.trim();
      if (bytesOf(blocks) > this.budget) {
        this.oversized.add(id);
        return;
      }
      this.partitions.set(id, { dims, blocks });
      this.behind.set(id, last ?? 0);
      this.used.set(id, ++this.searches);
      this.evictBeyondBudget(id);
    } finally {
      db.close();
    }
  }

  /**
   * Drops the least recently searched partitions (never `kept`, the one just loaded) until the
   * copy is within its budget. It runs after a load, between searches: a search that found its
   * partitions ready scans them in the same turn of the event loop, so none goes from under it.
   */
  private evictBeyondBudget(kept: string): void {
    let total = 0;
    for (const { blocks } of this.partitions.values()) total += bytesOf(blocks);
    const oldestFirst = [...this.used].filter(([id]) => id !== kept).sort((a, b) => a[1] - b[1]);
    for (const [id] of oldestFirst) {
      if (total <= this.budget) break;
      total -= bytesOf(this.partitions.get(id)?.blocks ?? new Map());
      this.drop(id);
    }
  }

  private drop(id: string): void {
    this.partitions.delete(id);
    this.behind.delete(id);
    this.used.delete(id);
  }

  /** Applies the vector rows inserted or deleted since the last search (another connection wrote them). */
  private catchUp(): void {
    const { first, last } = this.sql('SELECT MIN(seq) AS first, MAX(seq) AS last FROM vec_changes').get() as { first: number | null; last: number | null };
    if (last === null || last === this.seq) return;
    if (this.partitions.size === 0 || last < this.seq || first! > this.seq + 1) {
      // Nothing loaded, or changes missed (trimmed, or another file): what is searched next is loaded anew.
      this.partitions.clear();
      this.behind.clear();
      this.used.clear();
      this.seq = last;
      return;
    }
    this.applyChanges(this.seq);
    this.seq = last;
  }

  /** Brings partitions loaded at an older change than the last one applied up to it. */
  private catchUpLoaded(): void {
    if (this.behind.size === 0) return;
    const first = (this.sql('SELECT MIN(seq) AS first FROM vec_changes').get() as { first: number | null }).first ?? 0;
    for (const [id, seq] of this.behind) {
      if (seq < this.seq && first > seq + 1) this.drop(id);
      else if (seq < this.seq) this.applyChanges(seq, this.seq);
    }
    this.behind.clear();
  }

  /** Puts each vector row changed after `from` (up to `to`) in the state it has now: applying one twice does no harm. */
  private applyChanges(from: number, to = Number.MAX_SAFE_INTEGER): void {
    const changed = this.sql('SELECT DISTINCT vrow, dims FROM vec_changes WHERE seq > ? AND seq <= ?').all(from, to) as { vrow: number; dims: number }[];
    for (const { vrow, dims } of changed) this.refresh(vrow, dims);
  }

  /** Puts a vector row's stored state into the loaded partition it belongs to (or takes it out). */
  private refresh(vrow: number, dims: number): void {
    const loaded = [...this.partitions.values()].filter((partition) => partition.dims === dims);
    if (loaded.length === 0) return;
    for (const { blocks } of loaded) for (const block of blocks.values()) block.remove(vrow);
    const row = this.sql(`SELECT rowid AS vrow, scope, locale, embedding, doc FROM vec_${dims} WHERE rowid = ?`).get(BigInt(vrow)) as (Stored & { scope: string }) | undefined;
    const partition = row && this.partitions.get(partitionId(dims, row.scope));
    if (row && partition) blockOf(partition.blocks, dims, row.locale).put(row.vrow, row.doc, row.embedding);
  }
}

function bytesOf(blocks: Partition): number {
  let bytes = 0;
  for (const block of blocks.values()) bytes += block.bytes;
  return bytes;
}

function blockOf(blocks: Partition, dims: number, locale: string): VectorBlock {
  let block = blocks.get(locale);
  if (!block) {
    block = new VectorBlock(dims);
    blocks.set(locale, block);
  }
  return block;
}
