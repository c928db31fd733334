import { DOC_COLUMNS } from './docs-format.js';

type Keyed = { readonly env: string; readonly folder: string; readonly key: string; readonly data: string | null };

/** Row ids read by one statement at most. */
const CHUNK = 500;

/**
 * Published documents of a collection read by the row ids a search gave with its keys
 * (`Scored.rowid`, docs/decisions/0256): the rows by primary key, then kept only when they are
 * still the collection's published document of the key the search named. What the ids did not
 * give (a row gone or reused since the search's index was last told) is left to `byKeys`, so the
 * answer is the same as reading by key.
 */
export function rowsByRowids<R extends Keyed>(
  read: (sql: string) => { all(...params: number[]): R[] },
  env: string,
  folder: string,
  keys: readonly string[],
  rowids: readonly number[],
  byKeys: (keys: readonly string[]) => R[],
): R[] {
  const rows: R[] = [];
  for (let at = 0; at < rowids.length; at += CHUNK) {
    const chunk = rowids.slice(at, at + CHUNK);
    // The collection and published checks are made here, not in SQL: bound there, they match the
    // filter indexes' partial-index conditions (0265), and SQLite plans such a statement again for
    // each new binding (or picks a partial index and scans the collection: milliseconds a page).
    const sql = `SELECT ${DOC_COLUMNS} FROM docs WHERE rowid IN (${chunk.map(() => '?').join(', ')})`;
    rows.push(...read(sql).all(...chunk));
  }
  const wanted = new Set(keys);
  const kept = rows.filter((row) => row.env === env && row.folder === folder && row.data !== null && wanted.has(row.key));
  if (kept.length === wanted.size) return kept;
  const found = new Set(kept.map((row) => row.key));
  const missing = [...wanted].filter((key) => !found.has(key));
  return [...kept, ...byKeys(missing)];
}
