import type { Doc } from '../../projections/ports.js';
import { INDEXED_FIELDS } from '../../projections/catalog.js';
import type { ColumnFields, SqlParam } from './filter-sql.js';

export { INDEXED_FIELDS };
import type { SqliteDb } from './open.js';

/**
 * The indexed fields of a read-model table kept as columns beside its JSON document
 * (docs/decisions/0304): written with the document from the value the projection already holds,
 * so the indexes over them, and a rebuild's swap that builds those indexes over whole tables,
 * read plain columns instead of extracting the fields from every document's JSON text.
 */

/** Collection → its fields stored as columns (projections/catalog.ts INDEXED_FIELDS for the read models). */
export type ColumnLayout = ReadonlyMap<string, readonly string[]>;

/** The column of a top-level field; the prefix keeps it apart from `id` and `doc`. */
export const columnOf = (field: string): string => `c_${field}`;

/**
 * A field's value as SQLite's `json_extract(doc, '$.<field>')` answers it for the stored JSON,
 * so a query reads the same from the column as from the document: a missing field and null are
 * NULL, booleans 1 and 0, objects and arrays their JSON text.
 */
export function columnValue(doc: Doc, field: string): SqlParam {
  const value = doc[field];
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string') return value;
  const json = JSON.stringify(value) as string | undefined;
  if (json === undefined) return null;
  // What the stored text holds (a Date, say, is stored as its string).
  const stored: unknown = JSON.parse(json);
  return typeof stored === 'object' && stored !== null ? JSON.stringify(stored) : columnValue({ _id: '', v: stored }, 'v');
}

/** The table of a collection's documents, with its column fields. */
export const tableSql = (table: string, fields: readonly string[] = []): string =>
  `CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, doc TEXT NOT NULL${fields.map((f) => `, ${columnOf(f)}`).join('')})`;

/** The write of a document and its columns, replacing what was stored under its id. */
export const upsertSql = (table: string, fields: readonly string[] = []): string => {
  const columns = fields.map(columnOf);
  return (
    `INSERT INTO ${table} (id, doc${columns.map((c) => `, ${c}`).join('')}) VALUES (?, ?${columns.map(() => ', ?').join('')}) ` +
    `ON CONFLICT (id) DO UPDATE SET doc = excluded.doc${columns.map((c) => `, ${c} = excluded.${c}`).join('')}`
  );
};

/** The parameters of `upsertSql` for one document. */
export const upsertParams = (id: string, doc: Doc, fields: readonly string[] = []): SqlParam[] => [id, JSON.stringify(doc), ...fields.map((f) => columnValue(doc, f))];
/** The column fields of each collection: a layout's, looked up once per collection. */
export class CollectionColumns {
  private readonly sets = new Map<string, ColumnFields>();
  constructor(readonly layout: ColumnLayout = INDEXED_FIELDS) {}
  fields(collection: string): readonly string[] {
    return this.layout.get(collection) ?? [];
  }
  set(collection: string): ColumnFields {
    let set = this.sets.get(collection);
    if (!set) this.sets.set(collection, (set = new Set(this.fields(collection))));
    return set;
  }
}


/**
 * Brings the live tables (`prefix` + collection) of a file written before a field was a column
 * up to `layout`, in one write transaction: adds the missing columns, fills them from the
 * documents, and rebuilds the indexes over those fields on the columns (same names). A file
 * already in the layout costs one `table_info` per collection. Run at every open of the store.
 */
export function migrateColumns(db: SqliteDb, prefix: string, layout: ColumnLayout): void {
  const columnsOf = (table: string): Set<string> => new Set(db.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`).all().map((c) => c.name));
  const behind = (): [string, string[]][] =>
    [...layout]
      .map(([collection, fields]): [string, string[]] => {
        const table = `${prefix}${collection}`;
        const have = columnsOf(table);
        return [table, have.size === 0 ? [] : fields.filter((f) => !have.has(columnOf(f)))];
      })
      .filter(([, missing]) => missing.length > 0);
  if (behind().length === 0) return;
  db.transaction(() => {
    // Looked at again under the write lock: another connection may have migrated meanwhile.
    for (const [table, missing] of behind()) {
      for (const field of missing) db.exec(`ALTER TABLE ${table} ADD COLUMN ${columnOf(field)}`);
      db.exec(`UPDATE ${table} SET ${missing.map((f) => `${columnOf(f)} = json_extract(doc, '$.${f}')`).join(', ')}`);
      const indexes = db.prepare<[string], { name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL").all(table);
      for (const index of indexes) {
        let sql = index.sql;
        for (const field of missing) sql = sql.split(`json_extract(doc, '$.${field}')`).join(columnOf(field));
        if (sql === index.sql) continue;
        db.exec(`DROP INDEX ${index.name}`);
        db.exec(sql);
      }
    }
  }).immediate();
}
