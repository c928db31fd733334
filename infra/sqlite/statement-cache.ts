import type { Statement } from './driver.js';
import type { SqliteDb } from './open.js';

const caches = new WeakMap<SqliteDb, Map<string, Statement>>();
/** Distinct SQL texts kept per connection (read-model filters vary); the cache starts over beyond it. */
const MAX = 256;

/**
 * The prepared statement for `sql` on `db`, prepared once: preparing costs more than running
 * a primary-key lookup. SQLite re-prepares a cached statement itself after a schema change
 * (a rebuild's table swap).
 */
export function prepared<P extends unknown[] = unknown[], R = unknown>(db: SqliteDb, sql: string): Statement<P, R> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    if (cache.size >= MAX) cache.clear();
    statement = db.prepare(sql);
    cache.set(sql, statement);
  }
  return statement as unknown as Statement<P, R>;
}
