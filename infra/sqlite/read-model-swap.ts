import { REACTOR_TABLES } from '../../projections/reactor-tables.js';
import { LIVE_PREFIX, tableSql } from './read-store.js';
import { openSqlite } from './open.js';

/** Where a rebuild writes in the read-model file: `rb_<collection>` tables and their own checkpoints. */
export const SHADOW = { prefix: 'rb_', checkpoints: 'rb_checkpoints' } as const;

type Master = { name: string; tbl_name: string; sql: string | null };

const like = (prefix: string): string => `${prefix.replace(/_/g, '\\_')}%`;

function objects(db: ReturnType<typeof openSqlite>, type: 'table' | 'index', prefix: string): Master[] {
  return db.prepare<[string, string], Master>(`SELECT name, tbl_name, sql FROM sqlite_master WHERE type = ? AND name LIKE ? ESCAPE '\\'`).all(type, like(prefix));
}

/** The read-model tables of an attached scratch file. */
function scratchTables(db: ReturnType<typeof openSqlite>): string[] {
  return db
    .prepare<[string], { name: string }>(`SELECT name FROM scratch.sqlite_master WHERE type = 'table' AND name LIKE ? ESCAPE '\\'`)
    .all(like(LIVE_PREFIX))
    .map((t) => t.name);
}

/** Drops the tables an earlier, unfinished rebuild left in the file. */
export function clearShadow(file: string): void {
  const db = openSqlite(file);
  try {
    db.transaction(() => {
      for (const t of objects(db, 'table', SHADOW.prefix)) db.exec(`DROP TABLE ${t.name}`);
    }).immediate();
  } finally {
    db.close();
  }
}

/**
 * Replaces the live read-model tables by the rebuilt ones in one write transaction
 * (docs/decisions/0073). A running service's projections wait for it and then go on writing
 * into the new tables; its reads see the old tables until the commit, the new ones after.
 * Refused (false, nothing changed) while a live consumer is past the rebuilt position: catch
 * up and call again. `scratch`, a file in the live layout that another thread rebuilt some
 * consumers into (docs/decisions/0250), adds its tables and checkpoints: each is copied into
 * an empty live table that has the live indexes, which SQLite does page by page, index entries
 * included, when the scratch table has the same indexes.
 */
export function swapInReadModels(file: string, scratch?: string): boolean {
  const db = openSqlite(file);
  try {
    if (scratch !== undefined) db.prepare('ATTACH DATABASE ? AS scratch').run(scratch);
    return db.transaction((): boolean => {
      const rebuilt = db.prepare<[], { consumer: string; position: string }>(`SELECT consumer, position FROM ${SHADOW.checkpoints}`).all();
      const copied = scratch === undefined ? [] : scratchTables(db);
      if (scratch !== undefined) rebuilt.push(...db.prepare<[], { consumer: string; position: string }>('SELECT consumer, position FROM scratch.checkpoints').all());
      const live = db.prepare<[string], { position: string }>('SELECT position FROM checkpoints WHERE consumer = ?');
      if (rebuilt.some((r) => (live.get(r.consumer)?.position ?? '') > r.position)) return false;

      const shadowTables = objects(db, 'table', SHADOW.prefix).filter((t) => t.name !== SHADOW.checkpoints);
      const shadowNames = new Set([...shadowTables.map((t) => t.name.slice(SHADOW.prefix.length)), ...copied.map((t) => t.slice(LIVE_PREFIX.length))]);
      const replaced = (table: string): boolean => shadowNames.has(table.slice(LIVE_PREFIX.length));
      // The rebuilt tables get the live tables' indexes, built once over the full tables.
      const liveIndexes = objects(db, 'index', `ix_${LIVE_PREFIX}`).filter((i) => i.sql !== null && replaced(i.tbl_name));
      for (const index of objects(db, 'index', `ix_${SHADOW.prefix}`)) db.exec(`DROP INDEX ${index.name}`);
      for (const t of objects(db, 'table', LIVE_PREFIX)) {
        // A read model the rebuild never wrote is empty now; the others are replaced; reactors' tables stay.
        if (replaced(t.name)) db.exec(`DROP TABLE ${t.name}`);
        else if (!REACTOR_TABLES.has(t.name.slice(LIVE_PREFIX.length))) db.exec(`DELETE FROM ${t.name}`);
      }
      for (const t of shadowTables) db.exec(`ALTER TABLE ${t.name} RENAME TO ${LIVE_PREFIX}${t.name.slice(SHADOW.prefix.length)}`);
      for (const t of copied) db.exec(tableSql(t));
      for (const index of liveIndexes) db.exec(index.sql!);
      for (const t of copied) db.exec(`INSERT INTO main.${t} SELECT * FROM scratch.${t}`);
      const save = db.prepare('INSERT INTO checkpoints (consumer, position) VALUES (?, ?) ON CONFLICT (consumer) DO UPDATE SET position = excluded.position');
      for (const r of rebuilt) save.run(r.consumer, r.position);
      db.exec(`DROP TABLE ${SHADOW.checkpoints}`);
      return true;
    }).immediate();
  } finally {
    db.close();
  }
}
