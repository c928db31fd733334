// `npx tsx infra/bench/rebuild-floor.ts DIR [ROUNDS]`: what the SQLite work of `npm run rebuild`
// costs on this machine with no projection code at all (docs/decisions/0304). DIR is a data
// directory after a rebuild (`npm run rebuild -- --data-dir DIR` on one that
// infra/bench/rebuild-data.ts seeded): its final rows are read into memory first (not timed),
// then each part is timed alone, ROUNDS times, on fresh files beside it (removed again):
//   read       the log's events in pages of 500, as the rebuild's reader reads them, each event's
//              data and metadata parsed;
//   stringify  the read models' documents and the delivery payloads turned into JSON text;
//   rm rows    the read-model rows (ids and documents) into a fresh file, one
//              transaction per 1,000 rows, one prepared statement per table;
//   + index    the read models' indexes built over the full tables, in one transaction;
//   , indexed first  the same rows into tables that have their indexes already (each row's index
//              entries made as it is written: SQLite parses its JSON once for all of them);
//   , scratch  the same rows into a file written as the delivery scratch is (below);
//   , columns  the same read models with the fields their indexes name as columns of their own
//              and the indexes on those (the layout docs/decisions/0304 tried);
//   dl rows    the delivery index's rows (payloads as JSONB, full-text rows into FTS5), the same;
//   + index    the delivery index's indexes, in one transaction.
// The read-model file as the rebuild writes it (WAL, synchronous NORMAL); the delivery file as
// its scratch is written (rollback journal in memory, no syncs). CPU is the process's (user +
// system): the script has one thread of its own.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Database } from '../sqlite/driver.js';

type Db = InstanceType<typeof Database>;
type Table = { name: string; sql: string; columns: string[]; rows: unknown[][] };

const [dir, roundsArg = '5'] = process.argv.slice(2);
if (!dir) {
  process.stderr.write('usage: npx tsx infra/bench/rebuild-floor.ts DIR [ROUNDS]\n');
  process.exit(2);
}
const rounds = Number(roundsArg);
const TX_ROWS = 1000;

const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** Tables (not FTS5 shadow tables), their rows, and the indexes of a file. */
function load(file: string, tableWhere: string, json: (name: string, column: string) => string | undefined) {
  const db = new Database(file, { readonly: true });
  try {
    const master = db.prepare<[], { type: string; name: string; sql: string | null }>("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'").all();
    const virtual = master.filter((m) => m.type === 'table' && /^CREATE VIRTUAL TABLE/i.test(m.sql!)).map((m) => m.name);
    const shadow = (name: string): boolean => virtual.some((v) => name.startsWith(`${v}_`));
    const tables: Table[] = [];
    for (const m of master.filter((t) => t.type === 'table' && !shadow(t.name) && new RegExp(tableWhere).test(t.name))) {
      if (/fts5vocab/i.test(m.sql!)) continue;
      const columns = /USING fts5\(([^)]*)\)/i.exec(m.sql!)?.[1]!.split(',').filter((c) => !c.includes('=')).map((c) => c.trim().split(/\s+/)[0]!) ?? db.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${m.name}')`).all().map((c) => c.name);
      const select = columns.map((c) => json(m.name, c) ?? c).join(', ');
      tables.push({ name: m.name, sql: m.sql!, columns, rows: db.prepare(`SELECT ${select} FROM ${m.name}`).raw().all() as unknown[][] });
    }
    const indexes = master.filter((m) => m.type === 'index' && tables.some((t) => new RegExp(`ON ${t.name} `).test(m.sql!))).map((m) => m.sql!);
    return { tables, indexes };
  } finally {
    db.close();
  }
}

function fresh(file: string, mode: 'wal' | 'scratch'): Db {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) rmSync(f, { force: true });
  const db = new Database(file);
  if (mode === 'wal') {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  } else {
    db.pragma('journal_mode = MEMORY');
    db.pragma('synchronous = OFF');
  }
  db.pragma('cache_size = -8000');
  return db;
}

function writeRows(db: Db, tables: readonly Table[], value: (table: string, column: string) => string = () => '?', indexesFirst: readonly string[] = []): void {
  for (const t of tables) db.exec(t.sql);
  for (const sql of indexesFirst) db.exec(sql);
  for (const t of tables) {
    const insert = db.prepare(`INSERT INTO ${t.name} (${t.columns.join(', ')}) VALUES (${t.columns.map((c) => value(t.name, c)).join(', ')})`);
    for (let i = 0; i < t.rows.length; i += TX_ROWS) {
      db.transaction(() => {
        for (const row of t.rows.slice(i, i + TX_ROWS)) insert.run(...row);
      })();
    }
  }
}

function buildIndexes(db: Db, indexes: readonly string[]): void {
  db.transaction(() => {
    for (const sql of indexes) db.exec(sql);
  })();
}

/** A part that writes `tables` (then builds `indexes`) into a fresh file of `name` beside the data. */
const fill =
  (name: string, mode: 'wal' | 'scratch', tables: readonly Table[], indexes: readonly string[] = [], value?: (table: string, column: string) => string, indexesFirst = false) =>
  (): void => {
    const db = fresh(join(dir, name), mode);
    writeRows(db, tables, value, indexesFirst ? indexes : []);
    if (indexes.length > 0 && !indexesFirst) buildIndexes(db, indexes);
    db.close();
  };

const rm = load(join(dir, 'read-models.db'), '^(rm_|checkpoints$)', () => undefined);
// The same read models with the fields their indexes name as columns beside the document, the
// indexes on the columns (the layout docs/decisions/0304 tried): values as json_extract reads them.
const indexed = (table: string): string[] =>
  [...new Set(rm.indexes.filter((sql) => sql.includes(` ON ${table} (`)).flatMap((sql) => [...sql.matchAll(/json_extract\(doc, '\$\.(\w+)'\)/g)].map((m) => m[1]!)))];
const sqlValue = (value: unknown): unknown => (typeof value === 'boolean' ? Number(value) : value === undefined ? null : typeof value === 'object' && value !== null ? JSON.stringify(value) : value);
const rmColumns = {
  tables: rm.tables.map((t) => {
    const fields = indexed(t.name);
    if (fields.length === 0) return t;
    return {
      ...t,
      sql: t.sql.replace(/\)\s*$/, `${fields.map((f) => `, c_${f}`).join('')})`),
      columns: [...t.columns, ...fields.map((f) => `c_${f}`)],
      rows: t.rows.map((r) => {
        const doc = JSON.parse(String(r[1])) as Record<string, unknown>;
        return [...r, ...fields.map((f) => sqlValue(doc[f]))];
      }),
    };
  }),
  indexes: rm.indexes.map((sql) => sql.replace(/json_extract\(doc, '\$\.(\w+)'\)/g, 'c_$1')),
};
const deliveryFile = join(dir, 'delivery.rebuilt.db');
// Payloads as the rebuild hands them to SQLite (JSON text), stored as JSONB.
const dl = load(deliveryFile, '.', (table, column) => (table === 'docs' && column === 'data' ? 'json(data)' : undefined));
const payload = (table: string, column: string): string => (table === 'docs' && column === 'data' ? 'jsonb(?)' : '?');
const docsParsed = rm.tables.filter((t) => t.columns[1] === 'doc').flatMap((t) => t.rows.map((r) => JSON.parse(String(r[1])) as unknown));
const payloadsParsed = dl.tables.filter((t) => t.name === 'docs').flatMap((t) => t.rows.map((r) => (r[t.columns.indexOf('data')] === null ? null : (JSON.parse(String(r[t.columns.indexOf('data')])) as unknown))));

const log = new Database(join(dir, 'events.db'), { readonly: true });
const page = log.prepare<[number], unknown[]>('SELECT position, id, stream, revision, type, data, metadata FROM events WHERE position > ? ORDER BY position LIMIT 500').raw();
let events = 0;

const parts: Record<string, () => void> = {
  read: () => {
    events = 0;
    for (let rows = page.all(0); rows.length > 0; rows = page.all(rows[rows.length - 1]![0] as number)) {
      for (const row of rows) {
        JSON.parse(row[5] as string);
        JSON.parse(row[6] as string);
        events += 1;
      }
    }
  },
  stringify: () => {
    for (const doc of docsParsed) JSON.stringify(doc);
    for (const data of payloadsParsed) JSON.stringify(data);
  },
  'rm rows': fill('floor-rm.db', 'wal', rm.tables),
  'rm rows + index': fill('floor-rm.db', 'wal', rm.tables, rm.indexes),
  'rm rows, indexed first': fill('floor-rm.db', 'wal', rm.tables, rm.indexes, undefined, true),
  'rm rows, scratch': fill('floor-rm.db', 'scratch', rm.tables),
  'rm rows, columns': fill('floor-rm.db', 'wal', rmColumns.tables),
  'rm rows + index, columns': fill('floor-rm.db', 'wal', rmColumns.tables, rmColumns.indexes),
  'dl rows': fill('floor-dl.db', 'scratch', dl.tables, [], payload),
  'dl rows + index': fill('floor-dl.db', 'scratch', dl.tables, dl.indexes, payload),
};

const figures: Record<string, number[]> = {};
for (let round = 0; round < rounds; round += 1) {
  for (const [name, part] of Object.entries(parts)) {
    const before = cpu();
    part();
    (figures[name] ??= []).push(cpu() - before);
  }
}
log.close();
for (const f of ['floor-rm.db', 'floor-dl.db']) for (const s of ['', '-wal', '-shm', '-journal']) rmSync(join(dir, `${f}${s}`), { force: true });

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rowsOf = (tables: readonly Table[]): number => tables.reduce((n, t) => n + t.rows.length, 0);
process.stdout.write(`${events} events; read models ${rowsOf(rm.tables)} rows, ${rm.indexes.length} indexes; delivery ${rowsOf(dl.tables)} rows (${dl.tables.map((t) => `${t.name} ${t.rows.length}`).join(', ')}), ${dl.indexes.length} indexes; ${rounds} rounds, CPU seconds min / median\n`);
for (const [name, xs] of Object.entries(figures)) process.stdout.write(`${name.padEnd(24)} ${Math.min(...xs).toFixed(3)} / ${median(xs).toFixed(3)}\n`);
const floor = (pick: (xs: number[]) => number): number => ['read', 'stringify', 'rm rows + index', 'dl rows + index'].reduce((s, n) => s + pick(figures[n]!), 0);
process.stdout.write(`floor (read + stringify + rm rows + index + dl rows + index) ${floor((xs) => Math.min(...xs)).toFixed(3)} / ${floor(median).toFixed(3)} s\n`);
