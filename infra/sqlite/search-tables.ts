import { ALL_FIELDS } from '../../projections/search-entries.js';
import type { Scored, SearchEntries, TextQuery, VectorQuery } from '../../projections/search-ports.js';
import type { Statement } from './driver.js';
import type { SqliteDb } from './open.js';
import { closeTerms } from './fuzzy-terms.js';
import { expansionsPerWord } from '../../projections/typo-tolerance.js';
import { GENERATION_SCHEMA, type TextChanges, type TextIndexKeeper } from './text-index-keeper.js';
import { limitSql } from './delivery-query-sql.js';
import { prepared } from './statement-cache.js';
import { memoryTextSearch } from './text-search.js';
import { VECTOR_CHANGES_KEPT, VECTOR_CHANGES_SCHEMA, VECTOR_MEMORY_BYTES, VectorCache } from './vector-cache.js';
import type { VectorHit } from './vector-block.js';

/**
 * Search beside the delivery documents (docs/decisions/0051): FTS5 rows per document, searchable
 * field and locale; sqlite-vec tables per vector width, partitioned by collection and field, with
 * the locale as metadata; `doc_vectors` ties vector rows to their document.
 */
export const SEARCH_SCHEMA = `
CREATE TABLE IF NOT EXISTS search_meta (id TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS search_text USING fts5(body, doc UNINDEXED, field UNINDEXED, locale UNINDEXED, tokenize = 'unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE IF NOT EXISTS search_vocab USING fts5vocab(search_text, 'row');
CREATE TABLE IF NOT EXISTS doc_texts (doc INTEGER NOT NULL, trow INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS doc_texts_by_doc ON doc_texts (doc);
CREATE TABLE IF NOT EXISTS doc_vectors (vrow INTEGER PRIMARY KEY, doc INTEGER NOT NULL, dims INTEGER NOT NULL, bytes INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS doc_vectors_by_doc ON doc_vectors (doc);
${GENERATION_SCHEMA}
${VECTOR_CHANGES_SCHEMA}
`;

const vecTable = (dims: number): string => `vec_${dims}`;
/** Vectors are partitioned by collection and field: a query scans only the fields it names. */
const partition = (scope: string, field: string): string => `${scope}#${field}`;
const DIMENSIONS = /^[1-9]\d{0,4}$/;
/** sqlite-vec answers at most this many neighbours per query. */
export const MAX_NEIGHBOURS = 4096;

/** Scales a vector to length 1 in place (a zero vector stays zero). */
function normalize(vector: Float32Array): void {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! / norm;
}

/** Documents by distance, ties by key. */
const nearestFirst = (best: Map<string, number>, limit: number): Scored[] =>
  [...best].map(([key, score]) => ({ key, score })).sort((a, b) => a.score - b.score || (a.key < b.key ? -1 : 1)).slice(0, limit);

const localeArg = (locale: string | null): string[] => (locale === null ? [] : [locale]);
const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

/** What a vector counts in `vectors_size`: the combined embedding is a derived copy and counts nothing. */
const storedBytes = (vector: SearchEntries['vectors'][number]): number => (vector.field === ALL_FIELDS ? 0 : vector.vector.byteLength);

/** `vectors_size` of a document once `index` has stored these entries (docs/decisions/0296). */
export const vectorsBytes = (entries: SearchEntries): number => entries.vectors.reduce((sum, vector) => sum + storedBytes(vector), 0);

/**
 * The statement of an FTS5 ranked search (phrases, and words the in-memory index leaves to FTS5):
 * its parameters are the MATCH expression, the locale when one is named, the fields, the
 * environment and the collection. The LIMIT is written into the SQL, not bound: SQLite prepares a
 * statement again each time a bound LIMIT is bound anew (docs/decisions/0319).
 */
export function rankedTextSql(localeNamed: boolean, fields: number, limit: number): string {
  return `SELECT d.key AS key, -SUM(s.score) AS score, s.doc AS rowid FROM (
        SELECT doc, rank AS score FROM search_text
        WHERE search_text MATCH ? ${localeNamed ? "AND locale IN (?, '')" : ''} AND field IN (${placeholders(fields)})
      ) s JOIN docs d ON d.rowid = s.doc
      WHERE d.env = ? AND d.folder = ? AND d.data IS NOT NULL
      GROUP BY s.doc ORDER BY score DESC, d.key LIMIT ${limitSql(limit)}`;
}

/**
 * FTS5 query text: each word quoted (so none is read as an operator), OR-ed, or one quoted phrase.
 * Under typo tolerance each word brings the indexed terms close enough to it (fuzzy-terms.ts).
 */
export function ftsMatch(query: TextQuery, candidates: (from: string, to: string) => readonly string[] = () => []): string {
  const quote = (word: string) => `"${word.replace(/"/g, '""')}"`;
  if (query.phrase) return quote(query.phrase.join(' '));
  const words = query.words ?? [];
  const terms = words.flatMap((w) => closeTerms(w, query.threshold, candidates, expansionsPerWord(words.length)));
  return [...new Set(terms)].map(quote).join(' OR ');
}

export class SqliteSearchTables {
  private readonly known = new Set<number>();

  /**
   * `text`: on a reader, the in-memory text index that answers word searches; on a writer, the
   * record of the FTS rows it changes (docs/decisions/0200).
   */
  constructor(
    private readonly db: SqliteDb,
    private readonly text: { readonly keeper?: TextIndexKeeper; readonly changes?: TextChanges } = {},
    /** The float32 bytes of vectors this connection keeps in memory (docs/decisions/0301). */
    private readonly vectorMemoryBytes = VECTOR_MEMORY_BYTES,
  ) {
    for (const { name } of db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'vec%'").all()) {
      if (/^vec_\d+$/.test(name)) this.known.add(Number(name.slice(4)));
    }
  }

  /**
   * Statements are prepared once per SQL text, in the connection's bounded statement cache
   * (statement-cache.ts): a ranked search's statement is one per LIMIT.
   */
  private sql(text: string): Statement {
    return prepared(this.db, text);
  }

  /** Whether a table of this width exists (another connection may have created it). */
  private hasVectors(dims: number): boolean {
    if (this.known.has(dims)) return true;
    if (!this.sql("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(vecTable(dims))) return false;
    this.known.add(dims);
    return true;
  }

  private ensureVectors(dims: number): void {
    if (this.known.has(dims)) return;
    if (!DIMENSIONS.test(String(dims))) throw new Error(`vector width ${dims} is not supported`);
    this.db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${vecTable(dims)} USING vec0(scope TEXT PARTITION KEY, locale TEXT, embedding float[${dims}] distance_metric=cosine, +field TEXT, +doc INTEGER)`,
    );
    this.known.add(dims);
  }

  /** Parsed values by id with the text they were parsed from: an unchanged value is not parsed again (and stays the same object). */
  private readonly parsed = new Map<string, { text: string; value: unknown }>();

  meta(id: string): unknown {
    const row = this.sql('SELECT value FROM search_meta WHERE id = ?').get(id) as { value: string } | undefined;
    if (!row) return null;
    const known = this.parsed.get(id);
    if (known?.text === row.value) return known.value;
    const value: unknown = JSON.parse(row.value);
    if (this.parsed.size > 10_000) this.parsed.clear();
    this.parsed.set(id, { text: row.value, value });
    return value;
  }

  setMeta(id: string, value: unknown): void {
    if (value === null || value === undefined) this.sql('DELETE FROM search_meta WHERE id = ?').run(id);
    else this.sql('INSERT INTO search_meta (id, value) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET value = excluded.value').run(id, JSON.stringify(value));
  }

  /** Removes every search row of a document. */
  clear(doc: number): void {
    const trows = this.sql('SELECT trow FROM doc_texts WHERE doc = ?').all(doc) as { trow: number }[];
    const changes = this.text.changes;
    if (changes && trows.length > 0) {
      const body = this.sql('SELECT body FROM search_text WHERE rowid = ?').pluck();
      changes.removed(doc, changes.wantsTexts ? trows.map(({ trow }) => body.get(trow) as string) : null);
    }
    for (const { trow } of trows) {
      this.sql('DELETE FROM search_text WHERE rowid = ?').run(trow);
    }
    // A document with no rows (every new one) needs no delete: its select found nothing (docs/decisions/0271).
    if (trows.length > 0) this.sql('DELETE FROM doc_texts WHERE doc = ?').run(doc);
    const vrows = this.sql('SELECT vrow, dims FROM doc_vectors WHERE doc = ?').all(doc) as { vrow: number; dims: number }[];
    for (const { vrow, dims } of vrows) {
      if (!this.known.has(dims)) continue;
      this.sql(`DELETE FROM ${vecTable(dims)} WHERE rowid = ?`).run(BigInt(vrow));
      this.vectorChanged(vrow, dims);
    }
    if (vrows.length > 0) this.sql('DELETE FROM doc_vectors WHERE doc = ?').run(doc);
  }

  /**
   * Replaces a document's search rows with `entries`. `known`: the document's key (not looked up
   * again), and whether its rows were cleared since they were last written (then not cleared
   * again: a create's document is indexed, cleared, then its entries written, docs/decisions/0326).
   */
  index(doc: number, scope: string, entries: SearchEntries, known: { readonly key: string; readonly cleared: boolean } | null = null): void {
    if (!known?.cleared) this.clear(doc);
    for (const text of entries.texts) {
      const { lastInsertRowid } = this.sql('INSERT INTO search_text (body, doc, field, locale) VALUES (?, ?, ?, ?)').run(text.text, doc, text.field, text.locale);
      this.sql('INSERT INTO doc_texts (doc, trow) VALUES (?, ?)').run(doc, lastInsertRowid);
    }
    if (this.text.changes && entries.texts.length > 0) {
      const key = known?.key ?? (this.sql('SELECT key FROM docs WHERE rowid = ?').pluck().get(doc) as string);
      this.text.changes.put(doc, scope, key, entries.texts.map((t) => ({ field: t.field, locale: t.locale, text: t.text })));
    }
    for (const vector of entries.vectors) {
      const dims = vector.vector.length;
      this.ensureVectors(dims);
      const bytes = storedBytes(vector);
      const { lastInsertRowid } = this.sql('INSERT INTO doc_vectors (doc, dims, bytes) VALUES (?, ?, ?)').run(doc, dims, bytes);
      // A zero vector (a text of no known word) has no direction: counted, but never a neighbour.
      if (vector.vector.every((x) => x === 0)) continue;
      this
        .sql(`INSERT INTO ${vecTable(dims)} (rowid, scope, locale, embedding, field, doc) VALUES (?, ?, ?, ?, ?, ?)`)
        .run(BigInt(lastInsertRowid), partition(scope, vector.field), vector.locale, vector.vector, vector.field, BigInt(doc));
      this.vectorChanged(Number(lastInsertRowid), dims);
    }
  }

  /** Logs a vector row written or removed, for the in-memory copies of other connections (vector-cache.ts). */
  private vectorChanged(vrow: number, dims: number): void {
    const seq = Number(this.sql('INSERT INTO vec_changes (vrow, dims) VALUES (?, ?)').run(vrow, dims).lastInsertRowid);
    if (seq % 1024 === 0) this.sql('DELETE FROM vec_changes WHERE seq <= ?').run(seq - VECTOR_CHANGES_KEPT);
  }

  vectorsSize(doc: number): number {
    return (this.sql('SELECT SUM(bytes) AS bytes FROM doc_vectors WHERE doc = ?').get(doc) as { bytes: number | null }).bytes ?? 0;
  }

  /** vectorsSize of a document found by its address, in one statement (docs/decisions/0271): 0 for an unknown one. */
  vectorsSizeOf(env: string, folder: string, key: string): number {
    const sql = 'SELECT SUM(v.bytes) AS bytes FROM docs d JOIN doc_vectors v ON v.doc = d.rowid WHERE d.env = ? AND d.folder = ? AND d.key = ?';
    return (this.sql(sql).get(env, folder, key) as { bytes: number | null }).bytes ?? 0;
  }

  /**
   * Documents of the collection by BM25, best first (docs/decisions/0200): a document scores the
   * sum of its matching rows' bm25() in the named fields and locale; published documents only.
   * Words are answered by the in-memory index when there is one; phrases, and words FTS5 would
   * read as several tokens, by FTS5. `looked`: the keeper's `prepare()` has just run for this search.
   */
  searchText(env: string, folder: string, query: TextQuery, looked = false): Scored[] {
    if (query.fields.length === 0) return [];
    if (this.text.keeper && query.words && !query.phrase) {
      const hits = memoryTextSearch(this.text.keeper, env, folder, query, looked);
      if (hits) return hits;
    }
    return this.searchTextFts5(env, folder, query);
  }

  /** The same search by FTS5 alone. */
  searchTextFts5(env: string, folder: string, query: TextQuery): Scored[] {
    const vocabulary = this.sql('SELECT term FROM search_vocab WHERE term >= ? AND term < ?').pluck();
    const match = ftsMatch(query, (from, to) => vocabulary.all(from, to) as string[]);
    // A limit under one reads nothing (as LIMIT 0 did when it was bound).
    if (!match || query.fields.length === 0 || query.limit < 1) return [];
    const sql = rankedTextSql(query.locale !== null, query.fields.length, query.limit);
    return this.sql(sql).all(match, ...localeArg(query.locale), ...query.fields, env, folder) as Scored[];
  }

  /** This connection's in-memory copy of the vector partitions it searches (made on first use). */
  private vectorCopy: VectorCache | undefined;

  /**
   * Nearest documents, each at its nearest distance over the fields: the k = 2 × limit nearest
   * rows of each field partition, scanned exactly in memory once loaded (docs/decisions/0205).
   */
  searchVectors(env: string, folder: string, scope: string, query: VectorQuery): Scored[] {
    const dims = query.vector.length;
    if (!this.hasVectors(dims) || query.fields.length === 0) return [];
    const unit = Float32Array.from(query.vector);
    normalize(unit);
    const k = Math.min(MAX_NEIGHBOURS, query.limit * 2);
    this.vectorCopy ??= new VectorCache(this.db, this.vectorMemoryBytes);
    const copy = this.vectorCopy;
    // Until the partitions are in memory (loaded in the background), sqlite-vec answers.
    const ready = query.fields.map((field) => copy.ready(dims, partition(scope, field)));
    if (!ready.every(Boolean)) return this.searchVectorsInSqlite(env, folder, scope, query);
    return copy.read(() => {
      const perField = query.fields.map((field) => copy.nearest(dims, partition(scope, field), query.locale, unit, k));
      return this.bestPerDocument(env, folder, perField, query.limit);
    });
  }

  /** The hits' documents that are published in the collection, each at its nearest distance, nearest first. */
  private bestPerDocument(env: string, folder: string, perField: VectorHit[][], limit: number): Scored[] {
    const docs = [...new Set(perField.flat().map((hit) => hit.doc))];
    const keys = new Map(
      (this.sql('SELECT rowid, key FROM docs WHERE rowid IN (SELECT value FROM json_each(?)) AND +env = ? AND +folder = ? AND data IS NOT NULL')
        .all(JSON.stringify(docs), env, folder) as { rowid: number; key: string }[]).map((row) => [row.rowid, row.key]),
    );
    const best = new Map<string, number>();
    for (const hits of perField) {
      for (const hit of hits) {
        const key = keys.get(hit.doc);
        if (key !== undefined) best.set(key, Math.min(hit.distance, best.get(key) ?? Infinity));
      }
    }
    return nearestFirst(best, limit);
  }

  /** What searchVectors answers, computed by sqlite-vec's KNN queries: its answer while a partition loads, and the reference the in-memory scan is tested against. */
  searchVectorsInSqlite(env: string, folder: string, scope: string, query: VectorQuery): Scored[] {
    const dims = query.vector.length;
    if (!this.hasVectors(dims) || query.fields.length === 0) return [];
    const k = Math.min(MAX_NEIGHBOURS, query.limit * 2);
    // Materialized: the KNN query runs alone (vec0 refuses an outer ORDER BY pushed into it).
    const sql = `WITH v AS MATERIALIZED (
        SELECT doc, distance FROM ${vecTable(dims)}
        WHERE embedding MATCH ? AND k = ? AND scope = ? ${query.locale === null ? '' : "AND locale IN (?, '')"}
      )
      SELECT d.key AS key, MIN(v.distance) AS score FROM v JOIN docs d ON d.rowid = v.doc
      WHERE d.env = ? AND d.folder = ? AND d.data IS NOT NULL
      GROUP BY v.doc`;
    const best = new Map<string, number>();
    for (const field of query.fields) {
      for (const hit of this.sql(sql).all(query.vector, k, partition(scope, field), ...localeArg(query.locale), env, folder) as Scored[]) {
        best.set(hit.key, Math.min(hit.score, best.get(hit.key) ?? Infinity));
      }
    }
    return nearestFirst(best, query.limit);
  }

  /** Resolves when the vector partitions being loaded into memory are loaded. */
  async vectorsLoaded(): Promise<void> {
    await this.vectorCopy?.loaded();
  }

  /** Vectors this connection holds in memory (rows, float32 bytes). */
  vectorsInMemory(): { rows: number; bytes: number } {
    return this.vectorCopy?.stats() ?? { rows: 0, bytes: 0 };
  }
}
