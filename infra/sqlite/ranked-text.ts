import { BUDGET_CHECK } from './query-budget.js';
import { limitSql } from './delivery-query-sql.js';

/**
 * The statements of a ranked full-text search on FTS5 (docs/decisions/0337, 0378). Their
 * parameters, in order: the MATCH expression(s), the collection's row id range (from, to), the
 * locale when one is named, the fields, then the environment and the collection. A document scores
 * the sum of its matching rows' bm25() (`rank`) in the named fields and locale. The LIMIT is
 * written into the SQL, not bound: SQLite prepares a statement again each time a bound LIMIT is
 * bound anew (docs/decisions/0319).
 */

const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

/** The collection's row id range of an FTS row (FTS5 reads only that range of each term, docs/decisions/0337). */
const RANGE = 'rowid >= ? AND rowid < ?';

/**
 * The time budget (query-budget.ts), asked at one FTS row in 64 by row id: the function call was
 * 10 to 13% of a search's CPU when asked at every row (docs/decisions/0378); 64 rows take tens of
 * microseconds.
 */
const BUDGET = `((rowid & 63) <> 0 OR ${BUDGET_CHECK})`;

/** The locale and the fields of an FTS row (its UNINDEXED columns). */
const rowFilter = (localeNamed: boolean, fields: number): string => `${localeNamed ? "locale IN (?, '') AND " : ''}field IN (${placeholders(fields)})`;

/**
 * `g` (each document's row id and score) to the page: the documents scoring at least the
 * `limit`-th best, joined to their documents, best first, then by key. Only those are joined:
 * a collection's FTS rows are those of its published documents (a document's rows are cleared
 * whenever it is written or removed, and written only for a published one), so no document of
 * `g` is left out by the join.
 */
const pageOf = (limit: number): string => `
  SELECT d.key AS key, g.score AS score, g.doc AS rowid FROM g JOIN docs d ON d.rowid = g.doc
  WHERE g.score >= coalesce((SELECT score FROM g ORDER BY score DESC LIMIT 1 OFFSET ${Number(limitSql(limit)) - 1}), -1e308)
    AND d.env = ? AND d.folder = ? AND d.data IS NOT NULL
  ORDER BY g.score DESC, d.key LIMIT ${limitSql(limit)}`;

/** Every row matching the expression is scored (bm25()), every matching document summed. */
export function rankedTextSql(localeNamed: boolean, fields: number, limit: number): string {
  return `WITH g AS MATERIALIZED (
      SELECT doc, -SUM(rank) AS score FROM search_text
      WHERE search_text MATCH ? AND ${RANGE} AND ${BUDGET} AND ${rowFilter(localeNamed, fields)}
      GROUP BY doc
    ) ${pageOf(limit)}`;
}

/**
 * The documents holding a rare term, scored on the whole expression: FTS5 reads the rows matching
 * the rare terms (the first MATCH, no score), the candidates are those rows' documents, and the
 * whole expression (the second MATCH) scores only the rows of the candidates (`+rowid`: a filter
 * SQLite applies to each matching row, not a constraint handed to FTS5). A candidate's score is
 * the one `rankedTextSql` gives it; a document holding common terms alone is not scored
 * (commonTermsBound says how high it could score).
 */
export function candidatesTextSql(localeNamed: boolean, fields: number, limit: number): string {
  const filter = rowFilter(localeNamed, fields);
  return `WITH c AS MATERIALIZED (
      SELECT t.trow FROM doc_texts t WHERE t.doc IN (SELECT doc FROM search_text WHERE search_text MATCH ? AND ${RANGE} AND ${filter})
    ), g AS MATERIALIZED (
      SELECT doc, -SUM(rank) AS score FROM search_text
      WHERE search_text MATCH ? AND ${RANGE} AND +rowid IN c AND ${BUDGET} AND ${filter}
      GROUP BY doc
    ) ${pageOf(limit)}`;
}

/** FTS5's bm25() parameter k1: a term adds at most (k1 + 1) × its idf to a row's score. */
const K1 = 1.2;

/** A term of the query with the number of FTS rows holding it (fts5vocab's `doc`). */
export type TermRows = { readonly term: string; readonly rows: number };

/**
 * The most a term can add to one row's score: bm25()'s idf of the term (FTS5's formula, over the
 * whole table: `rows` of `total` rows hold it, never below 1e-6) times k1 + 1, the limit of its
 * term frequency factor.
 */
export const termBound = (rows: number, total: number): number => (K1 + 1) * Math.max(1e-6, Math.log((total - rows + 0.5) / (rows + 0.5)));

/**
 * How the query's words split into the rare ones, whose documents are scored (candidatesTextSql),
 * and the common ones, which FTS5 would otherwise score in every row holding them: null when
 * scoring every matching row costs about as much. Terms are common, the most frequent first,
 * while a document holding them alone (at most `rowsPerDoc` rows) scores less than the most one
 * row can score for the rarest term, and when the common terms' rows outnumber the rare ones' at
 * least twice. `bound`: the
 * most a document holding common terms alone can score.
 */
export function commonTerms(terms: readonly TermRows[], total: number, rowsPerDoc: number): { rare: string[]; bound: number } | null {
  if (terms.length < 2) return null;
  const byRows = [...terms].sort((a, b) => b.rows - a.rows);
  const rarest = byRows[byRows.length - 1]!;
  const rareBound = termBound(rarest.rows, total);
  let bound = 0;
  let common = 0;
  while (common < byRows.length - 1) {
    const next = bound + rowsPerDoc * termBound(byRows[common]!.rows, total);
    if (next >= rareBound) break;
    bound = next;
    common += 1;
  }
  const rows = (list: readonly TermRows[]) => list.reduce((sum, t) => sum + t.rows, 0);
  if (common === 0 || rows(byRows.slice(0, common)) < 2 * rows(byRows.slice(common))) return null;
  return { rare: byRows.slice(common).map((t) => t.term), bound };
}

/** Keys in SQLite's order (BINARY: the bytes of their UTF-8, which is their code points' order). */
const byKey = (a: string, b: string): number => (a === b ? 0 : Buffer.compare(Buffer.from(a), Buffer.from(b)));

/**
 * The page of a search over the pages of its parts (docs/decisions/0376): best first, then by key,
 * as each part's statement orders them, at most `limit`. A document in two parts (written between
 * the two parts' reads) counts once, at its best.
 */
export function mergedPage<T extends { readonly key: string; readonly score: number }>(pages: readonly (readonly T[])[], limit: number): T[] {
  if (pages.length === 1) return [...pages[0]!];
  const best = new Map<string, T>();
  for (const page of pages) for (const hit of page) if ((best.get(hit.key)?.score ?? -Infinity) < hit.score) best.set(hit.key, hit);
  return [...best.values()].sort((a, b) => b.score - a.score || byKey(a.key, b.key)).slice(0, limit);
}
