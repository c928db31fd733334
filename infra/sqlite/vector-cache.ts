import type { SqliteDb } from './open.js';
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

/** One partition's blocks, by locale. */
type Partition = Map<string, VectorBlock>;
type Stored = { vrow: number; locale: string; embedding: Uint8Array | string; doc: number };

const partitionId = (dims: number, scope: string): string => `${dims}\u0000${scope}`;

/**
 * In-memory copies of the vector partitions a connection has searched, loaded on first use and
 * kept current from `vec_changes` before each search: the same rows sqlite-vec holds, scanned
 * exactly by a SIMD kernel.
 */
export class VectorCache {
  private readonly partitions = new Map<string, { readonly dims: number; readonly blocks: Partition }>();
  /** `PRAGMA data_version` when this copy was last brought up to date: unchanged, nothing was committed since. */
  private version: number | null = null;
  /** The last change applied. */
  private seq = 0;

  constructor(private readonly db: SqliteDb) {}

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
      return work();
    } finally {
      if (!outer && this.db.inTransaction) this.db.exec('COMMIT');
    }
  }

  /** The k rows of a partition nearest a unit query vector, in `locale` and locale '' (every locale for null). */
  nearest(dims: number, scope: string, locale: string | null, query: Float32Array, k: number): VectorHit[] {
    const blocks = this.partition(dims, scope);
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

  private partition(dims: number, scope: string): Partition {
    const id = partitionId(dims, scope);
    const known = this.partitions.get(id);
    if (known) return known.blocks;
    const blocks: Partition = new Map();
    // As hex text: 100,000 blobs would each be a buffer for the collector, and the resident peak would show them.
    const rows = this.sql(`SELECT rowid AS vrow, locale, hex(embedding) AS embedding, doc FROM vec_${dims} WHERE scope = ?`).iterate(scope) as IterableIterator<Stored>;
    for (const row of rows) blockOf(blocks, dims, row.locale).put(row.vrow, row.doc, row.embedding);
    for (const block of blocks.values()) block.trim();
    this.partitions.set(id, { dims, blocks });
    return blocks;
  }

  /** Applies the vector rows inserted or deleted since the last search (another connection wrote them). */
  private catchUp(): void {
    const { first, last } = this.sql('SELECT MIN(seq) AS first, MAX(seq) AS last FROM vec_changes').get() as { first: number | null; last: number | null };
    if (last === null || last === this.seq) return;
    if (this.partitions.size === 0 || last < this.seq || first! > this.seq + 1) {
      // Nothing loaded, or changes missed (trimmed, or another file): what is searched next is loaded anew.
      this.partitions.clear();
      this.seq = last;
      return;
    }
    const changed = this.sql('SELECT DISTINCT vrow, dims FROM vec_changes WHERE seq > ?').all(this.seq) as { vrow: number; dims: number }[];
    for (const { vrow, dims } of changed) this.refresh(vrow, dims);
    this.seq = last;
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

function blockOf(blocks: Partition, dims: number, locale: string): VectorBlock {
  let block = blocks.get(locale);
  if (!block) {
    block = new VectorBlock(dims);
    blocks.set(locale, block);
  }
  return block;
}
