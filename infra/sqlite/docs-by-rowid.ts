import { DOC_COLUMNS, type RawDocRow } from './docs-format.js';
import type { DocRow } from './stored-doc.js';

/** Row ids read by one statement at most. */
const CHUNK = 500;

/** The statement of `count` row ids: the rows by primary key, read as arrays. Made once per count (a page is 11 ids every time). */
const sqlByCount: string[] = [];
export const rowidsSql = (count: number): string =>
  (sqlByCount[count] ??= `SELECT ${DOC_COLUMNS} FROM docs WHERE rowid IN (${Array.from({ length: count }, () => '?').join(', ')})`);

/**
 * Published documents of a collection read by the row ids a search gave with its keys
 * (`Scored.rowid`, docs/decisions/0256): the rows by primary key, then kept only when they are
 * still the collection's published document of the key the search named. What the ids did not
 * give (a row gone or reused since the search's index was last told) is left to `byKeys`, so the
 * answer is the same as reading by key. `read` gives a statement in raw mode: arrays, not objects
 * with eight named properties, are what better-sqlite3 builds cheapest, and only the rows kept
 * become objects (docs/decisions/0280).
 */
export function rowsByRowids<R extends DocRow>(
  read: (sql: string) => { all(...params: number[]): unknown[] },
  env: string,
  folder: string,
  keys: readonly string[],
  rowids: readonly number[],
  byKeys: (keys: readonly string[]) => R[],
): DocRow[] {
  const wanted = new Set(keys);
  const kept: DocRow[] = [];
  for (let at = 0; at < rowids.length; at += CHUNK) {
    const chunk = rowids.length <= CHUNK ? rowids : rowids.slice(at, at + CHUNK);
    // The collection and published checks are made here, not in SQL: bound there, they match the
    // filter indexes' partial-index conditions (0265), and SQLite plans such a statement again for
    // each new binding (or picks a partial index and scans the collection: milliseconds a page).
    for (const row of read(rowidsSql(chunk.length)).all(...chunk) as RawDocRow[]) {
      const [, rowEnv, rowFolder, key, created_at, updated_at, owner, data] = row;
      if (rowEnv === env && rowFolder === folder && data !== null && wanted.has(key)) kept.push({ env, folder, key, created_at, updated_at, owner, data });
    }
  }
  if (kept.length === wanted.size) return kept;
  const found = new Set(kept.map((row) => row.key));
  const missing = [...wanted].filter((key) => !found.has(key));
  return [...kept, ...byKeys(missing)];
}
