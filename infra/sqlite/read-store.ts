import type { Position } from '../../commands/ports.js';
import type { Doc, Filter, FindOptions, ReadCollection, ReadStore, ReadStoreTx } from '../../projections/ports.js';
import { fieldExpr, orderSql, whereSql, type SqlParam } from './filter-sql.js';
import { openSqlite, type SqliteDb } from './open.js';
import { checkpointInBackground, checkpointWithoutThread } from './background-checkpoints.js';
import { prepared } from './statement-cache.js';
import { Mutex } from '../mutex.js';
import type { BufferedWrites } from '../rebuild/buffered-writes.js';
import { writeBatchOn } from './read-store-batch.js';
import { FencedCheckpoints } from './fenced-checkpoints.js';

const NAME = /^[a-z_][a-z0-9_]*$/;

/** Read-model tables are `rm_<collection>`; a rebuild writes `rb_<collection>` beside them (infra/sqlite/read-model-swap.ts). */
export const LIVE_PREFIX = 'rm_';

export const tableOf = (name: string, prefix = LIVE_PREFIX): string => {
  if (!NAME.test(name)) throw new Error(`invalid collection name: ${name}`);
  return `${prefix}${name}`;
};

/** The table of a collection's documents (the rebuild's scratch file has the same). */
export const tableSql = (table: string): string => `CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`;

/** The index `ensureIndex` declares on `table` (the rebuild's scratch file builds the same). */
export const indexSql = (table: string, fields: readonly string[]): string =>
  `CREATE INDEX IF NOT EXISTS ix_${table}_${fields.map((f) => f.replace(/\./g, '_')).join('_')} ON ${table} (${fields.map(fieldExpr).join(', ')})`;

const missingTable = (error: unknown): boolean => error instanceof Error && /no such table/.test(error.message);

/** One collection on one connection: the read connection for queries, the write one inside a unit of work. */
class SqliteCollection<T extends Doc> implements ReadCollection<T> {
  constructor(
    private readonly db: SqliteDb,
    private readonly table: string,
  ) {}

  private all(sql: string, params: SqlParam[]): { doc: string }[] {
    try {
      return prepared<SqlParam[], { doc: string }>(this.db, sql).all(...params);
    } catch (error) {
      if (missingTable(error)) return [];
      throw error;
    }
  }

  async get(id: string): Promise<T | null> {
    const row = this.all(`SELECT doc FROM ${this.table} WHERE id = ?`, [id])[0];
    return row ? (JSON.parse(row.doc) as T) : null;
  }

  async find(filter: Filter = {}, options: FindOptions = {}): Promise<T[]> {
    const params: SqlParam[] = [];
    let sql = `SELECT doc FROM ${this.table} WHERE ${whereSql(filter, params)} ORDER BY ${orderSql(options.sort)}`;
    sql += ` LIMIT ${options.limit === undefined ? -1 : Math.max(0, Math.floor(options.limit))}`;
    if (options.skip) sql += ` OFFSET ${Math.max(0, Math.floor(options.skip))}`;
    return this.all(sql, params).map((row) => JSON.parse(row.doc) as T);
  }

  async count(filter: Filter = {}): Promise<number> {
    const params: SqlParam[] = [];
    try {
      const row = this.db
        .prepare<SqlParam[], { n: number }>(`SELECT COUNT(*) AS n FROM ${this.table} WHERE ${whereSql(filter, params)}`)
        .get(...params);
      return row?.n ?? 0;
    } catch (error) {
      if (missingTable(error)) return 0;
      throw error;
    }
  }

  async upsert(doc: T): Promise<void> {
    prepared(this.db, `INSERT INTO ${this.table} (id, doc) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`).run(doc._id, JSON.stringify(doc));
  }

  async delete(id: string): Promise<void> {
    prepared(this.db, `DELETE FROM ${this.table} WHERE id = ?`).run(id);
  }

  async deleteMany(filter: Filter): Promise<number> {
    const params: SqlParam[] = [];
    return this.db.prepare(`DELETE FROM ${this.table} WHERE ${whereSql(filter, params)}`).run(...params).changes;
  }
}

/** The embedded read store: a JSON table per collection, a writer and a reader connection (WAL). */
export class SqliteReadStore implements ReadStore {
  private readonly writer: SqliteDb;
  private readonly reader: SqliteDb;
  /** Ends the background checkpoints of this file (docs/decisions/0191); awaited before closing. */
  private readonly releaseCheckpoints: () => Promise<void>;
  private readonly created = new Set<string>();
  private readonly mutex = new Mutex();
  /** Set inside `unitsTogether`: each unit of work writes inside its transaction. */
  private together = false;

  private readonly prefix: string;
  private readonly checkpoints: string;
  private readonly saved: FencedCheckpoints;

  /**
   * `shadow` writes other tables of the same file: `<prefix><collection>` and the checkpoint table
   * named (a rebuild). `checkpointThread: false`: the file's WAL is checkpointed by another store
   * of the process, which has it open (the read side's thread, docs/decisions/0307).
   */
  constructor(file: string, shadow?: { readonly prefix: string; readonly checkpoints: string }, options: { readonly checkpointThread?: boolean } = {}) {
    this.prefix = shadow?.prefix ?? LIVE_PREFIX;
    this.checkpoints = shadow?.checkpoints ?? 'checkpoints';
    this.writer = openSqlite(file);
    // A rebuild's commits need not reach the disk one by one: its swap commit does (docs/decisions/0073).
    if (shadow) this.writer.pragma('synchronous = NORMAL');
    this.writer.exec(`CREATE TABLE IF NOT EXISTS ${this.checkpoints} (consumer TEXT PRIMARY KEY, position TEXT NOT NULL)`);
    this.saved = new FencedCheckpoints(this.writer, this.checkpoints);
    this.reader = openSqlite(file);
    // Rebuilt from the event store: commits need no sync of their own (docs/decisions/0101).
    for (const db of [this.writer, this.reader]) db.pragma('synchronous = NORMAL');
    // A rebuild's shadow tables start no checkpoint thread (docs/decisions/0295).
    this.releaseCheckpoints = shadow || options.checkpointThread === false ? checkpointWithoutThread(this.writer) : checkpointInBackground(this.writer, file);
  }

  private table(name: string): string {
    return tableOf(name, this.prefix);
  }

  private ensureTable(name: string): string {
    const t = this.table(name);
    if (!this.created.has(t)) {
      this.writer.exec(tableSql(t));
      this.created.add(t);
    }
    return t;
  }

  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    return new SqliteCollection<T>(this.reader, this.table(name));
  }

  async ensureIndex(collection: string, fields: readonly string[]): Promise<void> {
    await this.mutex.run(async () => {
      this.writer.exec(indexSql(this.ensureTable(collection), fields));
    });
  }

  async unitOfWork(consumer: string, position: Position, work: (tx: ReadStoreTx) => Promise<void>): Promise<void> {
    if (this.together) return this.unitInside(consumer, position, work);
    await this.mutex.run(async () => {
      this.writer.exec('BEGIN IMMEDIATE');
      try {
        await work({ collection: <T extends Doc>(name: string) => new SqliteCollection<T>(this.writer, this.ensureTable(name)) });
        this.saved.save(consumer, position);
        this.writer.exec('COMMIT');
      } catch (error) {
        if (this.writer.inTransaction) this.writer.exec('ROLLBACK');
        // Tables created inside the rolled-back transaction are gone again.
        this.created.clear();
        throw error;
      }
    });
  }

  /**
   * Runs `units` in one transaction with one `COMMIT` (the read side's thread, docs/decisions/0311):
   * each unit of work they start (one after another, never side by side) writes inside it. If a
   * unit or the `COMMIT` fails, the whole transaction rolls back, nothing of any unit is stored,
   * and the error is thrown (the caller applies the units again one by one). Not savepoints: each
   * page a savepoint changes is first copied to SQLite's statement journal, which made a round
   * of three slower than three transactions (docs/decisions/0311).
   */
  async unitsTogether<T>(units: () => Promise<T>): Promise<T> {
    return this.mutex.run(async () => {
      this.writer.exec('BEGIN IMMEDIATE');
      this.together = true;
      try {
        const result = await units();
        this.writer.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.writer.inTransaction) this.writer.exec('ROLLBACK');
        this.created.clear();
        throw error;
      } finally {
        this.together = false;
      }
    });
  }

  /** A unit of work inside `unitsTogether`: its writes and checkpoint in the shared transaction, which rolls back if it fails. */
  private async unitInside(consumer: string, position: Position, work: (tx: ReadStoreTx) => Promise<void>): Promise<void> {
    await work({ collection: <T extends Doc>(name: string) => new SqliteCollection<T>(this.writer, this.ensureTable(name)) });
    this.saved.save(consumer, position);
  }

  /** A rebuild buffer's flush in one transaction, each statement prepared once per collection (docs/decisions/0141). */
  async writeBatch(writes: BufferedWrites): Promise<void> {
    await this.mutex.run(async () => {
      try {
        this.writer.transaction(() => writeBatchOn(this.writer, (name) => this.ensureTable(name), this.checkpoints, writes)).immediate();
      } catch (error) {
        this.created.clear();
        throw error;
      }
    });
  }

  async fence(consumer: string, epoch: number): Promise<void> {
    await this.mutex.run(async () => this.saved.fence(consumer, epoch));
  }

  async checkpoint(consumer: string): Promise<Position> {
    const row = this.writer.prepare<[string], { position: string }>(`SELECT position FROM ${this.checkpoints} WHERE consumer = ?`).get(consumer);
    return row?.position ?? '';
  }

  async close(): Promise<void> {
    await this.releaseCheckpoints();
    await this.mutex.run(async () => {
      if (this.reader.open) this.reader.close();
      if (this.writer.open) this.writer.close();
    });
  }
}
