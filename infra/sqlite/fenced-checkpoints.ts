import type { Position } from '../../commands/ports.js';
import { LeaseLost } from '../../projections/lease.js';
import type { SqliteDb } from './open.js';

/**
 * The checkpoint writes of a SQLite file, fenced by lease epochs (docs/decisions/0386): each row
 * keeps the epoch of the last lease that fenced it. A consumer fenced through this connection
 * writes its checkpoint only while the row still has its epoch: the check and the write are one
 * statement inside the unit of work's transaction, so a holder that wakes after its successor
 * took over rolls its batch back. A consumer never fenced here (a rebuild, a test) writes as before.
 */
export class FencedCheckpoints {
  private readonly epochs = new Map<string, number>();
  private readonly plain;
  private readonly fenced;
  private readonly raise;
  private readonly stored;

  constructor(db: SqliteDb, table: string) {
    const columns = db.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`).all();
    if (!columns.some((column) => column.name === 'epoch')) db.exec(`ALTER TABLE ${table} ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0`);
    this.plain = db.prepare<[string, string]>(`INSERT INTO ${table} (consumer, position) VALUES (?, ?) ON CONFLICT (consumer) DO UPDATE SET position = excluded.position`);
    this.fenced = db.prepare<[string, string, number]>(
      `INSERT INTO ${table} (consumer, position, epoch) VALUES (?, ?, ?) ON CONFLICT (consumer) DO UPDATE SET position = excluded.position WHERE ${table}.epoch = excluded.epoch`,
    );
    this.stored = db.prepare<[string], number>(`SELECT epoch FROM ${table} WHERE consumer = ?`).pluck();
    this.raise = db.prepare<[string, number]>(
      `INSERT INTO ${table} (consumer, position, epoch) VALUES (?, '', ?) ON CONFLICT (consumer) DO UPDATE SET epoch = excluded.epoch WHERE ${table}.epoch <= excluded.epoch`,
    );
  }

  /** Marks the row with `epoch` (refused when a later one already did) and writes with it from now on. */
  fence(consumer: string, epoch: number): void {
    if (this.raise.run(consumer, epoch).changes !== 1) throw new LeaseLost(consumer, epoch, this.stored.get(consumer) ?? null);
    this.epochs.set(consumer, epoch);
  }

  /** Inside the unit of work's transaction: throws LeaseLost (and the caller rolls back) when fenced out. */
  save(consumer: string, position: Position): void {
    const epoch = this.epochs.get(consumer);
    if (epoch === undefined) this.plain.run(consumer, position);
    else if (this.fenced.run(consumer, position, epoch).changes !== 1) throw new LeaseLost(consumer, epoch);
  }
}
