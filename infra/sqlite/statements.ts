import type { Statement } from 'better-sqlite3';
import type { SqliteDb } from './open.js';

/** Most statements kept per connection; the cache starts over when full (filters make many shapes). */
const MAX = 500;
const caches = new WeakMap<SqliteDb, Map<string, Statement>>();

/**
 * `db.prepare(sql)`, compiled once per connection and SQL text: compiling took about as
 * long as running the small reads and writes of the read side (docs/decisions/0100).
 */
export function prepared<P extends unknown[] = unknown[], R = unknown>(db: SqliteDb, sql: string): Statement<P, R> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let statement = cache.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    if (cache.size >= MAX) cache.clear();
    cache.set(sql, statement);
  }
  return statement as unknown as Statement<P, R>;
}
