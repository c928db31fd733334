import type { Position } from '../../commands/ports.js';
import type { Doc, ReadCollection, ReadStore, ReadStoreTx } from '../../projections/ports.js';
import type { BatchWriter, BufferedWrites } from '../rebuild/buffered-writes.js';
import { openSqlite, setJournal, type SqliteDb } from './open.js';
import { indexSql, tableOf, tableSql } from './read-store.js';
import { writeBatchOn } from './read-store-batch.js';
import { prepared } from './statement-cache.js';

/**
 * A rebuild's scratch read-model file, written by one thread and thrown away afterwards
 * (docs/decisions/0250): the live file's table and index layout (`rm_<collection>`, its
 * `checkpoints`), written with its rollback journal in memory and no syncs. It takes whole buffered flushes
 * (BufferedReadStore) and index declarations; the swap copies its tables into the live file
 * (infra/sqlite/read-model-swap.ts). It answers gets by id; queries and units of work are not its job.
 */
export class ScratchReadStore implements ReadStore, BatchWriter {
  private readonly db: SqliteDb;
  private readonly created = new Set<string>();

  constructor(file: string) {
    this.db = openSqlite(file, { derived: true });
    // OFF is refused (and WAL kept, silently) on the driver's defensive connections; an in-memory
    // rollback journal keeps the writes out of a WAL and its checkpoint (docs/decisions/0295).
    setJournal(this.db, 'memory');
    this.db.pragma('synchronous = OFF');
    this.db.exec('CREATE TABLE IF NOT EXISTS checkpoints (consumer TEXT PRIMARY KEY, position TEXT NOT NULL)');
  }

  private ensureTable(name: string): string {
    const t = tableOf(name);
    if (!this.created.has(t)) {
      this.db.exec(tableSql(t));
      this.created.add(t);
    }
    return t;
  }

  async writeBatch(writes: BufferedWrites): Promise<void> {
    this.db.transaction(() => writeBatchOn(this.db, (name) => this.ensureTable(name), 'checkpoints', writes))();
  }

  async ensureIndex(collection: string, fields: readonly string[]): Promise<void> {
    this.db.exec(indexSql(this.ensureTable(collection), fields));
  }

  async checkpoint(consumer: string): Promise<Position> {
    return this.db.prepare<[string], { position: string }>('SELECT position FROM checkpoints WHERE consumer = ?').get(consumer)?.position ?? '';
  }

  /** Gets only (what a buffer reads after its first flush). */
  collection<T extends Doc = Doc>(name: string): ReadCollection<T> {
    const unsupported = (): never => {
      throw new Error('a rebuild scratch file is read by id only');
    };
    return {
      get: async (id) => {
        const t = this.ensureTable(name);
        const row = prepared<[string], { doc: string }>(this.db, `SELECT doc FROM ${t} WHERE id = ?`).get(id);
        return row ? (JSON.parse(row.doc) as T) : null;
      },
      find: unsupported,
      count: unsupported,
      upsert: unsupported,
      delete: unsupported,
      deleteMany: unsupported,
    };
  }

  unitOfWork(_consumer: string, _position: Position, _work: (tx: ReadStoreTx) => Promise<void>): Promise<void> {
    return Promise.reject(new Error('a rebuild scratch file takes buffered flushes only'));
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
