import { fold } from '../../projections/delivery-query-eval.js';
import type { SqliteDb } from './open.js';
import { prepared } from './statement-cache.js';

/**
 * The substring index of the delivery documents (docs/decisions/0338): an FTS5 table with the
 * `trigram` tokenizer holding, for each published document, the text of each of its string
 * fields (reached through objects, as a `where` path reaches them), lower-cased as the
 * case-insensitive operators fold it. The table is contentless (the texts are the documents')
 * with deletes allowed; a row's id is the document's row id times 65,536 plus the number of the
 * field's path (`substring_paths`), so a document's rows are one row id range.
 *
 * A `contains`, `startswith` or `endswith` condition (or a case-insensitive one) on a field asks
 * the index for the documents whose folded text at that path holds the folded operand, then
 * checks each of those exactly as before: the trigram match is a superset of the exact answer
 * (a text that holds the operand holds it lower-cased, and its trigrams), never a replacement.
 * Operands of fewer than three characters (trigrams match nothing shorter) and operands with a
 * Greek sigma (lower-cased by its context, so a substring can fold otherwise than its text) are
 * checked on every document of the collection, as before.
 */
export const SUBSTRING_SCHEMA = `
CREATE VIRTUAL TABLE IF NOT EXISTS doc_substrings USING fts5(text, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1');
CREATE TABLE IF NOT EXISTS substring_paths (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE);
`;

const PATHS_PER_DOC = 65_536;
/** Object keys a `where` path can name (delivery-query-sql.ts): only those are indexed. */
const SEGMENT = /^[A-Za-z0-9_-]+$/;

/** The path's number, assigned on first sight (null past the 65,535 a row id range holds: that path stays unindexed). */
function pathNumber(db: SqliteDb, path: string): number | null {
  const known = prepared<[string], number>(db, 'SELECT id FROM substring_paths WHERE path = ?').pluck().get(path);
  if (known !== undefined) return known;
  const id = prepared<[string], number>(db, 'INSERT INTO substring_paths (path) VALUES (?) RETURNING id').pluck().get(path)!;
  return id < PATHS_PER_DOC ? id : null;
}

/** Each string of the payload reached through objects, with its path (segments joined by dots). */
function* strings(value: unknown, path: string): Generator<[path: string, text: string]> {
  if (typeof value === 'string') {
    if (path !== '') yield [path, value];
    return;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  for (const [key, item] of Object.entries(value)) {
    if (SEGMENT.test(key)) yield* strings(item, path === '' ? key : `${path}.${key}`);
  }
}

/** Indexes a document's strings (its rows must be absent: a new document, or one cleared). */
export function indexSubstrings(db: SqliteDb, doc: number, data: Record<string, unknown> | null): void {
  if (data === null) return;
  const insert = prepared(db, 'INSERT INTO doc_substrings (rowid, text) VALUES (?, ?)');
  for (const [path, text] of strings(data, '')) {
    const id = pathNumber(db, path);
    // Row ids as integers: FTS5 refuses a double, which a JavaScript number is bound as.
    if (id !== null) insert.run(BigInt(doc) * BigInt(PATHS_PER_DOC) + BigInt(id), fold(text));
  }
}

/** Removes a document's rows. */
export function clearSubstrings(db: SqliteDb, doc: number): void {
  const from = BigInt(doc) * BigInt(PATHS_PER_DOC);
  prepared(db, 'DELETE FROM doc_substrings WHERE rowid >= ? AND rowid < ?').run(from, from + BigInt(PATHS_PER_DOC));
}

/**
 * Creates the index, and fills it from the published documents when the file had none (a file
 * written before 0338), in one transaction.
 */
export function ensureSubstringIndex(db: SqliteDb): void {
  const existed = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'substring_paths'").get() !== undefined;
  db.transaction(() => {
    db.exec(SUBSTRING_SCHEMA);
    if (existed) return;
    // Pages of rows (the connection cannot write while a statement of it reads).
    const page = db.prepare<[number], { rowid: number; data: string }>('SELECT rowid, json(data) AS data FROM docs WHERE rowid > ? AND data IS NOT NULL ORDER BY rowid LIMIT 1000');
    for (let rows = page.all(0); rows.length > 0; rows = page.all(rows[rows.length - 1]!.rowid)) {
      for (const row of rows) indexSubstrings(db, row.rowid, JSON.parse(row.data) as Record<string, unknown>);
    }
  }).immediate();
}

/**
 * What a page's statement needs to ask the index: the number of a path (null when no document
 * ever had a string there, or it is not indexed), and the FTS5 query of an operand (null when the
 * index cannot answer it: fewer than three characters, or a sigma).
 */
export type SubstringLookup = (path: readonly string[]) => number | null;

export const substringLookup =
  (db: SqliteDb): SubstringLookup =>
  (path) => {
    const id = prepared<[string], number>(db, 'SELECT id FROM substring_paths WHERE path = ?').pluck().get(path.join('.'));
    return id !== undefined && id < PATHS_PER_DOC ? id : null;
  };

/**
 * Characters of an operand the index is asked for: a longer operand asks for its first ones (a
 * text holding the operand holds them), so that a long operand costs what a short one does: FTS5
 * holds the positions of each trigram of a phrase while it matches it (a 1,000-character operand
 * over a 600 KB text took about a gigabyte, docs/decisions/0338).
 */
export const MATCHED_CHARS = 32;

export function substringMatch(operand: string): string | null {
  if (/[Σς]/u.test(operand)) return null;
  const chars = [...fold(operand)];
  if (chars.length < 3) return null;
  return `"${chars.slice(0, MATCHED_CHARS).join('').replace(/"/g, '""')}"`;
}

/** The SQL that keeps the documents (of the docs row `table`) whose text at the path may hold the operand: `match` and the path's number bound. */
export const substringCandidates = (table: string, match: string, path: string): string =>
  `${table}.rowid IN (SELECT rowid >> 16 FROM doc_substrings WHERE doc_substrings MATCH ${match} AND (rowid & 65535) = ${path})`;
