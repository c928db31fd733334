import { createHash } from 'node:crypto';
import type { SearchField } from '../../projections/search-fields.js';
import { activeVersionId, versionFieldsId } from '../../projections/search-fields.js';
import { jsonPath, sqlText } from './delivery-query-sql.js';
import type { SqliteDb } from './open.js';

/**
 * One partial index of `docs` per collection holding, beside the page order (`created_at`,
 * `key`), the JSON type and value of each of its short scalar fields (docs/decisions/0265). A
 * filtered page scans it in page order and rejects a row from the index alone: the expressions
 * are those delivery-query-sql.ts writes, so SQLite reads them from the index instead of
 * computing them from the row's payload, and reads the row only for the documents it returns.
 * The index is partial on `+env = '<env>' AND +folder = '<folder>'`: a page's statement that
 * names its collection so (pageSql's `filterIndexed`) can use no other index, and one that names
 * it with parameters, as every other statement does, never uses this one.
 */

/** Field types whose values are short scalars: a filter on them is answered from the index. */
const INDEXED_TYPES: ReadonlySet<string> = new Set(['integer', 'number', 'boolean', 'string', 'date', 'time', 'datetime']);
/** At most this many fields per collection (two index columns each), in schema order. */
export const MAX_INDEXED_FIELDS = 16;
const PREFIX = 'docs_filter_';

/** The top-level, non-localizable short scalar fields of a collection, as index column paths. */
export function indexedPaths(fields: readonly SearchField[]): string[] {
  const paths: string[] = [];
  for (const field of fields) {
    if (paths.length >= MAX_INDEXED_FIELDS) break;
    if (field.localizable || field.path.includes('.') || !INDEXED_TYPES.has(field.type)) continue;
    try {
      paths.push(jsonPath([field.path]));
    } catch {
      // A key the query language cannot name is never filtered.
    }
  }
  return paths;
}

/** How the adapter remembers which collections have a filter index. */
export const collectionId = (env: string, folder: string): string => `${env}\0${folder}`;

export const filterIndexName = (env: string, folder: string): string =>
  `${PREFIX}${createHash('sha256').update(`${env}\0${folder}`).digest('hex').slice(0, 16)}`;

/** The `CREATE INDEX` of a collection's filter index, or null when it has no field to index. */
export function filterIndexSql(env: string, folder: string, fields: readonly SearchField[]): string | null {
  const paths = indexedPaths(fields);
  if (paths.length === 0) return null;
  const columns = paths.flatMap((p) => [`json_type(data, ${p})`, `json_extract(data, ${p})`]);
  return `CREATE INDEX ${filterIndexName(env, folder)} ON docs (created_at, key, ${columns.join(', ')}) WHERE +env = ${sqlText(env)} AND +folder = ${sqlText(folder)} AND data IS NOT NULL`;
}

/** The filter indexes the collections' published versions want, by name: their SQL and collection. */
function wanted(db: SqliteDb): Map<string, { sql: string; collection: string }> {
  const meta = db.prepare<[string], { value: string }>('SELECT value FROM search_meta WHERE id = ?');
  const want = new Map<string, { sql: string; collection: string }>();
  for (const { id, value } of db.prepare<[], { id: string; value: string }>("SELECT id, value FROM search_meta WHERE id LIKE 'active:%'").all()) {
    const [, env, folder, ...rest] = id.split(':');
    const version: unknown = JSON.parse(value);
    if (env === undefined || folder === undefined || rest.length > 0 || typeof version !== 'string' || activeVersionId(env, folder) !== id) continue;
    const row = meta.get(versionFieldsId(env, version));
    const fields: unknown = row ? JSON.parse(row.value) : [];
    const sql = filterIndexSql(env, folder, Array.isArray(fields) ? (fields as SearchField[]) : []);
    if (sql) want.set(filterIndexName(env, folder), { sql, collection: collectionId(env, folder) });
  }
  return want;
}

/**
 * Makes the file's filter indexes those of the collections' published versions: creates the
 * missing ones, re-creates those whose fields changed, drops those of collections no longer
 * published. Run at open (which also brings files written before these indexes up to date) and
 * in the unit of work that changes a published version, inside its transaction. Answers the
 * collections (collectionId) that have one.
 */
export function syncFilterIndexes(db: SqliteDb): Set<string> {
  const want = wanted(db);
  const indexed = new Set([...want.values()].map((w) => w.collection));
  const have = db.prepare<[number, string], { name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND substr(name, 1, ?) = ?").all(PREFIX.length, PREFIX);
  for (const { name, sql } of have) {
    if (want.get(name)?.sql === sql) want.delete(name);
    else db.exec(`DROP INDEX ${name}`);
  }
  for (const { sql } of want.values()) db.exec(sql);
  return indexed;
}

/** Whether a changed search_meta entry can change which filter indexes are wanted. */
export const changesFilterIndexes = (metaId: string): boolean => metaId.startsWith('active:') || metaId.startsWith('fields:');
