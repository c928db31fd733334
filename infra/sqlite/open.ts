import { Database, type SqliteDatabase } from './driver.js';
import * as sqliteVec from 'sqlite-vec';

export type SqliteDb = SqliteDatabase;

/**
 * Page cache of each connection, in KiB: half of the driver's compiled default (16,000 KiB).
 * A service holds five connections that fill their caches at 100,000 resources; the files'
 * pages stay in the operating system's cache either way (docs/decisions/0222).
 */
export const CACHE_KIB = 8000;

/**
 * Opens a SQLite file for durable writes: WAL journal, every commit synced (synchronous FULL).
 * `derived` is for files the event store can rebuild (the read models, the delivery index):
 * synchronous NORMAL, commits atomic but not synced one by one (docs/decisions/0101).
 */
export function openSqlite(file: string, options: { readonly?: boolean; vectors?: boolean; derived?: boolean } = {}): SqliteDb {
  const db = new Database(file, { readonly: options.readonly ?? false });
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
  }
  db.pragma(options.derived ? 'synchronous = NORMAL' : 'synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.pragma(`cache_size = -${CACHE_KIB}`);
  db.pragma('foreign_keys = ON');
  if (options.vectors) sqliteVec.load(db);
  return db;
}

/**
 * Sets the journal mode and checks that SQLite took it: it answers the mode it keeps instead of
 * failing, as with OFF on the driver's defensive connections (docs/decisions/0295).
 */
export function setJournal(db: SqliteDb, mode: 'wal' | 'memory' | 'delete'): void {
  const now = db.pragma(`journal_mode = ${mode}`, { simple: true });
  if (now !== mode) throw new Error(`SQLite kept journal mode ${String(now)} instead of ${mode}`);
}

/** Positions are the SQLite row id, zero-padded so that they order as strings. */
export const toPosition = (seq: number | bigint): string => String(seq).padStart(20, '0');
export const fromPosition = (position: string): number => (position === '' ? 0 : Number(position));
