import type { BufferedWrites } from '../rebuild/buffered-writes.js';
import { whereSql, type SqlParam } from './filter-sql.js';
import type { SqliteDb } from './open.js';

/**
 * Writes a rebuild buffer's flush on `db`, inside the caller's transaction: the removals in
 * order, then every document with one prepared statement per collection, then the positions.
 * `table` names (and creates) a collection's table. Deletions are skipped on a fresh store.
 */
export function writeBatchOn(db: SqliteDb, table: (collection: string) => string, checkpoints: string, writes: BufferedWrites): void {
  for (const removal of writes.removals) {
    const params: SqlParam[] = [];
    db.prepare(`DELETE FROM ${table(removal.collection)} WHERE ${whereSql(removal.filter, params)}`).run(...params);
  }
  for (const [collection, docs] of writes.docs) {
    if (docs.size === 0) continue;
    const t = table(collection);
    const upsert = db.prepare<[string, string]>(`INSERT INTO ${t} (id, doc) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`);
    const remove = db.prepare<[string]>(`DELETE FROM ${t} WHERE id = ?`);
    for (const [id, doc] of docs) {
      if (doc) upsert.run(id, JSON.stringify(doc));
      else if (!writes.fresh) remove.run(id);
    }
  }
  const save = db.prepare<[string, string]>(`INSERT INTO ${checkpoints} (consumer, position) VALUES (?, ?) ON CONFLICT (consumer) DO UPDATE SET position = excluded.position`);
  for (const [consumer, position] of writes.positions) save.run(consumer, position);
}
