import type { SqliteDb } from './open.js';

/**
 * How the delivery index stores a document's payload (docs/decisions/0210): `docs.data` holds
 * SQLite JSONB, which the `json_*` functions of a filter read without parsing text; reads turn
 * it back into JSON text in the query (`json(data)`), writes convert the JSON text they bind
 * (`jsonb(?)`). The file's `user_version` says which format its rows are in.
 */
export const DOCS_FORMAT = 1;

/** The columns of a `docs` row as the adapter reads them: the payload as JSON text. */
export const DOC_COLUMNS = 'rowid, env, folder, key, created_at, updated_at, owner, json(data) AS data';

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
