import { ALL_FIELDS } from '../../projections/search-entries.js';
import type { Scored, SearchEntries, TextQuery, VectorQuery } from '../../projections/ports.js';
import type { Statement } from './driver.js';
import type { SqliteDb } from './open.js';
import { closeTerms } from './fuzzy-terms.js';
import { expansionsPerWord } from '../../projections/typo-tolerance.js';
import { prepared } from './statement-cache.js';
import { candidatesTextSql, commonTerms, rankedTextSql } from './ranked-text.js';
import { limitSql } from './delivery-query-sql.js';

/**
 * The FTS5 table of the search texts (docs/decisions/0378): contentless (the texts are the
 * documents'), with deletes allowed, its UNINDEXED columns kept in a table of their own
 * (`contentless_unindexed`), so that reading a matching row's document, field and locale reads a
 * row of a few bytes, not one holding the text.
 */
export const textTableSql = (name: string, ifNotExists = false): string =>
  `CREATE VIRTUAL TABLE ${ifNotExists ? 'IF NOT EXISTS ' : ''}${name} USING fts5(body, doc UNINDEXED, field UNINDEXED, locale UNINDEXED, content = '', contentless_delete = 1, contentless_unindexed = 1, tokenize = 'unicode61 remove_diacritics 2')`;

/**
 * Search beside the delivery documents (docs/decisions/0051): FTS5 rows per document, searchable
 * field and locale, each collection's rows in a row id range of their own (docs/decisions/0337),
 * with the most rows a document of the collection has had (`rows_per_doc`, docs/decisions/0378);
 * sqlite-vec tables per vector width, partitioned by collection and field, with
 * the locale as metadata; `doc_vectors` ties vector rows to their document.
 */
export const SEARCH_SCHEMA = `
CREATE TABLE IF NOT EXISTS search_meta (id TEXT PRIMARY KEY, value TEXT NOT NULL);
${textTableSql('search_text', true)};
CREATE VIRTUAL TABLE IF NOT EXISTS search_vocab USING fts5vocab(search_text, 'row');
CREATE TABLE IF NOT EXISTS doc_texts (doc INTEGER NOT NULL, trow INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS doc_texts_by_doc ON doc_texts (doc);
CREATE TABLE IF NOT EXISTS doc_vectors (vrow INTEGER PRIMARY KEY, doc INTEGER NOT NULL, dims INTEGER NOT NULL, bytes INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS doc_vectors_by_doc ON doc_vectors (doc);
CREATE TABLE IF NOT EXISTS search_scopes (scope TEXT PRIMARY KEY, n INTEGER NOT NULL UNIQUE, rows_per_doc INTEGER NOT NULL DEFAULT 1);
-- The in-memory indexes' change records, gone with them (docs/decisions/0337).
DROP TABLE IF EXISTS search_generation;
DROP TABLE IF EXISTS vec_changes;
`;

const vecTable = (dims: number): string => `vec_${dims}`;
/** Vectors are partitioned by collection and field: a query scans only the fields it names. */
const partition = (scope: string, field: string): string => `${scope}#${field}`;
const DIMENSIONS = /^[1-9]\d{0,4}$/;
/** sqlite-vec answers at most this many neighbours per query. */
export const MAX_NEIGHBOURS = 4096;

const localeArg = (locale: string | null): string[] => (locale === null ? [] : [locale]);

/** What a vector counts in `vectors_size`: the combined embedding is a derived copy and counts nothing. */
const storedBytes = (vector: SearchEntries['vectors'][number]): number => (vector.field === ALL_FIELDS ? 0 : vector.vector.byteLength);

/** `vectors_size` of a document once `index` has stored these entries (docs/decisions/0296). */
export const vectorsBytes = (entries: SearchEntries): number => entries.vectors.reduce((sum, vector) => sum + storedBytes(vector), 0);

/** Most terms and term counts a connection keeps (a few MB). */
const MAX_VOCABULARY = 200_000;

/** A part of a collection's FTS rows, `[from, to)` by row id, holding whole documents (textParts). */
export type TextPart = readonly [from: number, to: number];

/** Row ids of one collection's FTS rows: `n × SCOPE_ROWS` up to the next collection's (docs/decisions/0337). */
export const SCOPE_ROWS = 2 ** 36;

/**
 * A row id bound for FTS5: as an integer. The driver binds a JavaScript number as a REAL, and FTS5
 * ignores a rowid constraint that is not an INTEGER (it read the whole table, and SQLite dropped
 * the rows out of range: docs/decisions/0376).
 */
const rowidArg = (rowid: number): bigint => BigInt(rowid);

const quote = (word: string) => `"${word.replace(/"/g, '""')}"`;

/** An FTS5 expression of terms: each quoted (so none is read as an operator), OR-ed. */
const anyOf = (terms: readonly string[]): string => terms.map(quote).join(' OR ');

/** The query's terms: its words, and under typo tolerance the indexed terms close enough to each (fuzzy-terms.ts). */
export function queryTerms(query: TextQuery, candidates: (from: string, to: string) => readonly string[] = () => []): string[] {
  const words = query.words ?? [];
  return [...new Set(words.flatMap((w) => closeTerms(w, query.threshold, candidates, expansionsPerWord(words.length))))];
}


/**
 * The FTS rows of a file written before 0337 (one row id sequence for every collection) given
 * each collection a range of its own, in one transaction: the rows are copied once into a new
 * table at their new row ids (moving a row in place would tokenize it twice: out, then in). The
 * old table is renamed and the new one created under its name: FTS5 (3.53) renames no
 * `contentless_unindexed` table's `_content` table with it.
 */
export function migrateTextRowRanges(db: SqliteDb): void {
  if (!db.prepare('SELECT 1 FROM search_text WHERE rowid < ? LIMIT 1').get(SCOPE_ROWS)) return;
  db.transaction(() => {
    const scopes = db.prepare<[], string>("SELECT DISTINCT d.env || '/' || d.folder FROM doc_texts t JOIN docs d ON d.rowid = t.doc").pluck().all();
    for (const scope of scopes) scopeNumber(db, scope, true);
    db.exec(`
      CREATE TEMP TABLE text_moves (old INTEGER PRIMARY KEY, new INTEGER NOT NULL);
      INSERT INTO text_moves (old, new)
        SELECT t.trow, s.n * ${SCOPE_ROWS} + row_number() OVER (PARTITION BY s.n ORDER BY t.trow)
        FROM doc_texts t JOIN docs d ON d.rowid = t.doc JOIN search_scopes s ON s.scope = d.env || '/' || d.folder;
      DROP TABLE search_vocab;
      ALTER TABLE search_text RENAME TO search_text_before;
      ${textTableSql('search_text')};
      INSERT INTO search_text (rowid, body, doc, field, locale)
        SELECT m.new, s.body, s.doc, s.field, s.locale FROM text_moves m JOIN search_text_before s ON s.rowid = m.old;
      DELETE FROM doc_texts WHERE trow NOT IN (SELECT old FROM text_moves);
      UPDATE doc_texts SET trow = (SELECT new FROM text_moves WHERE old = doc_texts.trow);
      DROP TABLE search_text_before;
      CREATE VIRTUAL TABLE search_vocab USING fts5vocab(search_text, 'row');
      DROP TABLE temp.text_moves;
    `);
    countRowsPerDoc(db);
  })();
}

/** Each collection's `rows_per_doc` from its documents' rows (a file written before 0378). */
function countRowsPerDoc(db: SqliteDb): void {
  db.exec(`UPDATE search_scopes SET rows_per_doc = coalesce((
      SELECT max(rows) FROM (SELECT count(*) AS rows FROM doc_texts WHERE trow >= search_scopes.n * ${SCOPE_ROWS} AND trow < (search_scopes.n + 1) * ${SCOPE_ROWS} GROUP BY doc)
    ), 1)`);
}

/**
 * A file written before 0378 brought over, in one transaction: its FTS rows copied into a
 * contentless table (textTableSql) under the old one's name (renamed first, as above), and each collection's
 * `rows_per_doc` counted. It prints a line while it runs (about 5 s for 200,000 rows).
 */
export function migrateTextFormat(db: SqliteDb, say: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): void {
  const table = db.prepare<[], string>("SELECT sql FROM sqlite_master WHERE name = 'search_text'").pluck().get() ?? '';
  const counted = db.prepare("SELECT 1 FROM pragma_table_info('search_scopes') WHERE name = 'rows_per_doc'").get() !== undefined;
  const contentless = table.includes('contentless_unindexed');
  if (contentless && counted) return;
  say('delivery index: bringing the full-text index over to its contentless format (docs/decisions/0378)...');
  const started = performance.now();
  db.transaction(() => {
    if (!contentless) {
      db.exec(`
        DROP TABLE search_vocab;
        ALTER TABLE search_text RENAME TO search_text_before;
        ${textTableSql('search_text')};
        INSERT INTO search_text (rowid, body, doc, field, locale) SELECT rowid, body, doc, field, locale FROM search_text_before;
        INSERT INTO search_text (search_text) VALUES ('optimize');
        DROP TABLE search_text_before;
        CREATE VIRTUAL TABLE search_vocab USING fts5vocab(search_text, 'row');
      `);
    }
    if (!counted) db.exec('ALTER TABLE search_scopes ADD COLUMN rows_per_doc INTEGER NOT NULL DEFAULT 1');
    countRowsPerDoc(db);
  }).immediate();
  say(`delivery index: full-text index brought over in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** The collection's number (0 when it has none and `assign` is false). */
function scopeNumber(db: SqliteDb, scope: string, assign: boolean): number {
  const known = prepared<[string], number>(db, 'SELECT n FROM search_scopes WHERE scope = ?').pluck().get(scope);
  if (known !== undefined || !assign) return known ?? 0;
  return prepared<[string], number>(db, 'INSERT INTO search_scopes (scope, n) VALUES (?, (SELECT coalesce(max(n), 0) + 1 FROM search_scopes)) RETURNING n').pluck().get(scope)!;
}

/** The row id the collection's next FTS row takes: one past its last (docs/decisions/0337). */
function firstRowOf(db: SqliteDb, n: number): number {
  const from = n * SCOPE_ROWS;
  const last = prepared<[bigint, bigint], number>(db, 'SELECT rowid FROM search_text WHERE rowid >= ? AND rowid < ? ORDER BY rowid DESC LIMIT 1').pluck().get(rowidArg(from), rowidArg(from + SCOPE_ROWS));
  return (last ?? from) + 1;
}

export class SqliteSearchTables {
  private readonly known = new Set<number>();

  constructor(private readonly db: SqliteDb) {
    for (const { name } of db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'vec%'").all()) {
      if (/^vec_\d+$/.test(name)) this.known.add(Number(name.slice(4)));
    }
  }

  /** Statements are prepared once per SQL text, in the connection's bounded statement cache (statement-cache.ts). */
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
    const trows = this.sql('SELECT trow FROM doc_texts WHERE doc = ?').pluck().all(doc) as number[];
    for (const trow of trows) this.sql('DELETE FROM search_text WHERE rowid = ?').run(trow);
    // A document with no rows (every new one) needs no delete: its select found nothing (docs/decisions/0271).
    if (trows.length > 0) this.sql('DELETE FROM doc_texts WHERE doc = ?').run(doc);
    const vrows = this.sql('SELECT vrow, dims FROM doc_vectors WHERE doc = ?').all(doc) as { vrow: number; dims: number }[];
    for (const { vrow, dims } of vrows) {
      if (this.known.has(dims)) this.sql(`DELETE FROM ${vecTable(dims)} WHERE rowid = ?`).run(BigInt(vrow));
    }
    if (vrows.length > 0) this.sql('DELETE FROM doc_vectors WHERE doc = ?').run(doc);
  }

  /**
   * Replaces a document's search rows with `entries`. `cleared`: its rows were cleared since they
   * were last written (then not cleared again: a create's document is indexed, cleared, then its
   * entries written, docs/decisions/0326).
   */
  index(doc: number, scope: string, entries: SearchEntries, cleared = false): void {
    if (!cleared) this.clear(doc);
    let trow = 0;
    if (entries.texts.length > 0) {
      const n = scopeNumber(this.db, scope, true);
      trow = firstRowOf(this.db, n);
      // The most rows a document of the collection has had: what bounds the score of a document holding common terms alone (ranked-text.ts).
      this.sql('UPDATE search_scopes SET rows_per_doc = ? WHERE n = ? AND rows_per_doc < ?').run(entries.texts.length, n, entries.texts.length);
    }
    for (const text of entries.texts) {
      this.sql('INSERT INTO search_text (rowid, body, doc, field, locale) VALUES (?, ?, ?, ?, ?)').run(BigInt(trow), text.text, doc, text.field, text.locale);
      this.sql('INSERT INTO doc_texts (doc, trow) VALUES (?, ?)').run(doc, trow);
      trow += 1;
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
    }
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
   * Documents of the collection by BM25, best first, by FTS5 alone (docs/decisions/0337, 0378): a
   * document scores the sum of its matching rows' bm25() in the named fields and locale;
   * published documents only. Typo tolerance reads the vocabulary from fts5vocab. When some of
   * the words are common (commonTerms), the documents holding the rare ones are scored first;
   * their page is the answer when its last document scores above what any document holding
   * common words alone can, and every matching row is scored otherwise. `part`: only the
   * documents of these FTS rows (textParts), the collection's page among them; every score is
   * the one the whole collection's search gives (bm25() counts over the whole table).
   */
  searchText(env: string, folder: string, scope: string, query: TextQuery, part?: TextPart): Scored[] {
    // A limit under one reads nothing (as LIMIT 0 did when it was bound).
    if (query.fields.length === 0 || query.limit < 1) return [];
    const n = scopeNumber(this.db, scope, false);
    if (n === 0) return [];
    const [from, to] = part ?? [n * SCOPE_ROWS, (n + 1) * SCOPE_ROWS];
    const terms = query.phrase ? [query.phrase.join(' ')] : queryTerms(query, (from, to) => this.vocabulary(from, to));
    if (terms.length === 0) return [];
    const match = anyOf(terms);
    const localeNamed = query.locale !== null;
    const rows = [rowidArg(from), rowidArg(to), ...localeArg(query.locale), ...query.fields];
    const split = this.commonSplit(terms, n);
    if (split) {
      const page = this.sql(candidatesTextSql(localeNamed, query.fields.length, query.limit)).all(anyOf(split.rare), ...rows, match, ...rows, env, folder) as Scored[];
      if (page.length === query.limit && page[page.length - 1]!.score > split.bound) return page;
    }
    return this.sql(rankedTextSql(localeNamed, query.fields.length, query.limit)).all(match, ...rows, env, folder) as Scored[];
  }

  /**
   * The collection's FTS rows cut into at most `count` parts at documents' edges, `[from, to)`
   * row id ranges each scored on a thread of its own (docs/decisions/0376): a document's rows are
   * one run of row ids (`index` writes them one after another, after the collection's last row),
   * so a cut just before a row whose document differs from the row before it leaves every
   * document whole in one part. Empty when the collection has no rows (its search answers nothing).
   */
  textParts(scope: string, count: number): TextPart[] {
    const n = scopeNumber(this.db, scope, false);
    if (n === 0) return [];
    const end = (n + 1) * SCOPE_ROWS;
    const edge = (order: 'ASC' | 'DESC') => this.sql(`SELECT rowid FROM search_text WHERE rowid >= ? AND rowid < ? ORDER BY rowid ${order} LIMIT 1`).pluck();
    const first = edge('ASC').get(rowidArg(n * SCOPE_ROWS), rowidArg(end)) as number | undefined;
    const last = edge('DESC').get(rowidArg(n * SCOPE_ROWS), rowidArg(end)) as number | undefined;
    if (first === undefined || last === undefined) return [];
    const rowsPerDoc = this.sql('SELECT rows_per_doc FROM search_scopes WHERE n = ?').pluck().get(n) as number;
    const following = this.sql(`SELECT rowid, doc FROM search_text WHERE rowid >= ? AND rowid < ? ORDER BY rowid LIMIT ${limitSql(rowsPerDoc + 1)}`);
    const cuts = [first];
    for (let k = 1; k < count; k++) {
      const at = Math.max(cuts[cuts.length - 1]!, first + Math.floor(((last + 1 - first) * k) / count));
      // The first row from `at` on whose document is not the one of the row at `at`: the document before it ends before it.
      const rows = following.all(rowidArg(at), rowidArg(last + 1)) as { rowid: number; doc: number }[];
      const cut = rows.find((row) => row.doc !== rows[0]!.doc)?.rowid;
      if (cut !== undefined && cut > cuts[cuts.length - 1]!) cuts.push(cut);
    }
    // The first part from the range's start, the last to its end: rows written since these reads are in one part or another.
    cuts[0] = n * SCOPE_ROWS;
    cuts.push(end);
    return cuts.slice(1).map((to, i): TextPart => [cuts[i]!, to]);
  }

  /**
   * What this connection read of the vocabulary while the file has not changed since
   * (`PRAGMA data_version` moves when another connection commits; docs/decisions/0376): the terms
   * of initial ranges, and terms' row counts, at most MAX_VOCABULARY entries in all.
   */
  private read: { version: number; ranges: Map<string, readonly string[]>; rows: Map<string, number>; entries: number } = { version: -1, ranges: new Map(), rows: new Map(), entries: 0 };

  /** `read`, emptied when the file has changed or when `adding` more entries would pass MAX_VOCABULARY. */
  private readSince(adding = 0): typeof this.read {
    const version = this.sql('PRAGMA data_version').pluck().get() as number;
    if (version !== this.read.version || this.read.entries + adding > MAX_VOCABULARY) this.read = { version, ranges: new Map(), rows: new Map(), entries: 0 };
    return this.read;
  }

  /**
   * The indexed terms of `[from, to)`, for typo tolerance (fuzzy-terms.ts): fts5vocab reads every
   * term's rows to count them (28 ms for the 142 terms of one initial letter of the benchmark's
   * corpus), so they are kept while the file does not change.
   */
  private vocabulary(from: string, to: string): readonly string[] {
    const key = `${from}\u0000${to}`;
    const known = this.readSince().ranges.get(key);
    if (known) return known;
    const terms = this.sql('SELECT term FROM search_vocab WHERE term >= ? AND term < ?').pluck().all(from, to) as string[];
    const read = this.readSince(terms.length);
    read.ranges.set(key, terms);
    read.entries += terms.length;
    return terms;
  }

  /** The FTS rows holding the term, as FTS5 counts them for bm25() (every row of the table; 6 ms for a word in 94,000 rows), kept while the file does not change. */
  private termRows(term: string): number {
    const known = this.readSince().rows.get(term);
    if (known !== undefined) return known;
    const rows = this.sql('SELECT count(*) FROM search_text WHERE search_text MATCH ?').pluck().get(quote(term)) as number;
    const read = this.readSince(1);
    read.rows.set(term, rows);
    read.entries += 1;
    return rows;
  }

  /** commonTerms of the query: each term's rows (termRows), the table's rows, the collection's rows_per_doc. */
  private commonSplit(terms: readonly string[], n: number): ReturnType<typeof commonTerms> {
    if (terms.length < 2) return null;
    const counted = terms.map((term) => ({ term, rows: this.termRows(term) }));
    const total = this.sql('SELECT count(*) FROM doc_texts').pluck().get() as number;
    const rowsPerDoc = this.sql('SELECT rows_per_doc FROM search_scopes WHERE n = ?').pluck().get(n) as number;
    return commonTerms(counted, total, rowsPerDoc);
  }

  /**
   * Nearest documents, each at its nearest distance over the fields: sqlite-vec's KNN, the
   * k = 2 × limit nearest rows of each field's partition (docs/decisions/0337).
   */
  searchVectors(env: string, folder: string, scope: string, query: VectorQuery): Scored[] {
    const dims = query.vector.length;
    if (!this.hasVectors(dims) || query.fields.length === 0 || query.limit < 1) return [];
    const k = Math.min(MAX_NEIGHBOURS, query.limit * 2);
    // Materialized: the KNN query runs alone (vec0 refuses an outer ORDER BY pushed into it).
    const sql = `WITH v AS MATERIALIZED (
        SELECT doc, distance FROM ${vecTable(dims)}
        WHERE embedding MATCH ? AND k = ? AND scope = ? ${query.locale === null ? '' : "AND locale IN (?, '')"}
      )
      SELECT d.key AS key, MIN(v.distance) AS score, v.doc AS rowid FROM v JOIN docs d ON d.rowid = v.doc
      WHERE d.env = ? AND d.folder = ? AND d.data IS NOT NULL
      GROUP BY v.doc`;
    const best = new Map<string, Scored>();
    for (const field of query.fields) {
      for (const hit of this.sql(sql).all(query.vector, k, partition(scope, field), ...localeArg(query.locale), env, folder) as Scored[]) {
        const known = best.get(hit.key);
        if (!known || hit.score < known.score) best.set(hit.key, hit);
      }
    }
    return [...best.values()].sort((a, b) => a.score - b.score || (a.key < b.key ? -1 : 1)).slice(0, query.limit);
  }
}
