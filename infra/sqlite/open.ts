import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';

export type SqliteDb = Database.Database;

/**
 * Opens a SQLite file for durable writes: WAL journal, every commit synced (synchronous FULL).
 * `derived` is for the projections' files, which the event store can rebuild: synchronous
 * NORMAL, so a commit is atomic and the file consistent after a power loss but not synced
 * at once; the newest commits may be lost together with their checkpoint and are applied
 * again from the events (docs/decisions/0101). The event store always syncs every commit.
 */
export function openSqlite(file: string, options: { readonly?: boolean; vectors?: boolean; derived?: boolean } = {}): SqliteDb {
  const db = new Database(file, { readonly: options.readonly ?? false });
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
  }
  db.pragma('synchronous = FULL');
  if (options.derived) derivedDurability(db);
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  if (options.vectors) sqliteVec.load(db);
  return db;
}

/** For a file the event store can rebuild (see `openSqlite`'s `derived`): commits are not synced one by one. */
export function derivedDurability(db: SqliteDb): void {
  db.pragma('synchronous = NORMAL');
}

/** Positions are the SQLite row id, zero-padded so that they order as strings. */
export const toPosition = (seq: number | bigint): string => String(seq).padStart(20, '0');
export const fromPosition = (position: string): number => (position === '' ? 0 : Number(position));
