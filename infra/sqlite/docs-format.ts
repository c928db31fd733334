import type { SqliteDb } from './open.js';
import type { DocRow } from './stored-doc.js';

/**
 * How the delivery index stores a document's payload (docs/decisions/0210): `docs.data` holds
 * SQLite JSONB, which the `json_*` functions of a filter read without parsing text; reads turn
 * it back into JSON text in the query (`json(data)`), writes convert the JSON text they bind
 * (`jsonb(?)`). The file's `user_version` says which format its rows are in.
 */
export const DOCS_FORMAT = 1;

/** The columns of a `docs` row as the adapter reads them: the payload as JSON text. */
export const DOC_COLUMNS = 'rowid, env, folder, key, created_at, updated_at, owner, json(data) AS data';

/** A `docs` row read as an array (its statement in raw mode), its columns in DOC_COLUMNS' order. */
export type RawDocRow = [rowid: number, env: string, folder: string, key: string, created_at: string, updated_at: string, owner: string | null, data: string | null];

/**
 * The row of a raw-mode read as an object with DOC_COLUMNS' names: better-sqlite3 builds an
 * array per row far cheaper than an object of eight named properties, and an object literal
 * costs little more than the array (docs/decisions/0280, 0300).
 */
export const docRowOf = (row: RawDocRow): DocRow & { rowid: number } => ({
  rowid: row[0],
  env: row[1],
  folder: row[2],
  key: row[3],
  created_at: row[4],
  updated_at: row[5],
  owner: row[6],
  data: row[7],
});

/** The SQL value bound for a payload: its JSON text, stored as JSONB. */
export const DATA_VALUE = 'jsonb(?)';

/**
 * Brings a delivery index written by an earlier release (payloads as JSON text, user_version
 * 0) to the current format, in place and in one transaction: every payload converted to JSONB.
 * A file already in the format (or a new, empty one) only has its version checked or set.
 */
export function migrateDocsFormat(db: SqliteDb): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version >= DOCS_FORMAT) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(`UPDATE docs SET data = jsonb(data) WHERE typeof(data) = 'text'`);
    db.pragma(`user_version = ${DOCS_FORMAT}`);
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
  // The conversion rewrote most pages into the WAL: copied back and emptied before anyone reads,
  // so reads do not look pages up through a WAL of the whole file.
  db.pragma('wal_checkpoint(TRUNCATE)');
}
