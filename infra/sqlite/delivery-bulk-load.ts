import { closeSync, fsyncSync, openSync } from 'node:fs';
import type { Position } from '../../commands/ports.js';
import type { DeliveryDoc } from '../../projections/ports.js';
import { DATA_VALUE } from './docs-format.js';
import { openSqlite, setJournal } from './open.js';
import { indexSubstrings } from './substring-index.js';

/** The secondary index of the docs table, built once after the rows are in (as SqliteSearchIndex's schema declares it). */
const LATE_INDEX = 'docs_by_created';

/**
 * Writes a rebuilt delivery index in one pass (docs/decisions/0141): `file` is a fresh index
 * that SqliteSearchIndex created (its schema, no rows) and nobody else has open. The file is
 * thrown away if the rebuild fails, so it is written with its rollback journal in memory and without syncs;
 * row ids are assigned here, so each row costs a plain insert into `docs`, and the
 * `(created_at, key)` index is built once at the end. Payloads are stored as SQLiteSearchIndex
 * stores them (JSONB, docs-format.ts). The file is left in WAL mode, synced, as the service
 * opens it.
 */
export function bulkLoadDelivery(file: string, docs: Iterable<DeliveryDoc>, positions: ReadonlyMap<string, Position>): void {
  const db = openSqlite(file);
  try {
    // Not OFF: refused on the driver's defensive connections, which kept WAL (docs/decisions/0295).
    setJournal(db, 'memory');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -65536');
    const index = db.prepare<[string], { sql: string }>(`SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?`).get(LATE_INDEX);
    const insert = db.prepare<[number, string, string, string, string, string, string | null, string | null]>(
      `INSERT INTO docs (rowid, env, folder, key, created_at, updated_at, owner, data) VALUES (?, ?, ?, ?, ?, ?, ?, ${DATA_VALUE})`,
    );
    const save = db.prepare<[string, string]>(
      'INSERT INTO checkpoints (consumer, position) VALUES (?, ?) ON CONFLICT (consumer) DO UPDATE SET position = excluded.position',
    );
    db.transaction(() => {
      if (index) db.exec(`DROP INDEX ${LATE_INDEX}`);
      let rowid = 0;
      for (const doc of docs) {
        rowid += 1;
        insert.run(rowid, doc.env, doc.folder, doc.key, doc.created_at, doc.updated_at, doc.owner, doc.data === null ? null : JSON.stringify(doc.data));
        indexSubstrings(db, rowid, doc.data);
      }
      if (index) db.exec(index.sql);
      for (const [consumer, position] of positions) save.run(consumer, position);
    })();
    setJournal(db, 'wal');
  } finally {
    db.close();
  }
  const fd = openSync(file, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
