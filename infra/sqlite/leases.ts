import { hostname } from 'node:os';
import type { Leases } from '../../projections/lease.js';
import { openSqlite, type SqliteDb } from './open.js';

type Row = { holder: string; epoch: number; expires_at: number };

/** Whether a holder named `host/pid/…` runs on this host and its process is gone (then its lease is free now, not at its expiry). */
export function deadHere(holder: string): boolean {
  const [host, pid] = holder.split('/');
  const id = Number(pid);
  if (host !== hostname() || !Number.isInteger(id) || id === process.pid) return false;
  try {
    process.kill(id, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * The leases of the embedded store (docs/decisions/0386): a row per projection and reactor in the
 * read-model file, taken and renewed in immediate transactions, so two processes never both
 * answer an epoch for the same name. Rows are never deleted: an epoch only grows.
 */
export class SqliteLeases implements Leases {
  private readonly db: SqliteDb;
  private readonly read;
  private readonly insert;
  private readonly take;
  private readonly extend;
  private readonly free;
  private readonly raised;

  constructor(file: string) {
    this.db = openSqlite(file, { derived: true });
    // The driver waits for a lock synchronously: a renewal behind another process's batch holds
    // this event loop at most this long, then fails and is tried again next second.
    this.db.pragma('busy_timeout = 250');
    // SQLite checkpoints the WAL in the committing connection once it passes this connection's mark
    // (1,000 pages by default): a renewal after the read models' batches copied their pages into the
    // file and synced it on the event loop, up to 13 ms. The read store's writer checkpoints this file.
    this.db.pragma('wal_autocheckpoint = 0');
    this.db.exec('CREATE TABLE IF NOT EXISTS leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, epoch INTEGER NOT NULL, expires_at INTEGER NOT NULL) WITHOUT ROWID');
    this.read = this.db.prepare<[string], Row>('SELECT holder, epoch, expires_at FROM leases WHERE name = ?');
    this.insert = this.db.prepare<[string, string, number]>('INSERT INTO leases (name, holder, epoch, expires_at) VALUES (?, ?, 1, ?)');
    this.take = this.db.prepare<[string, number, number, string]>('UPDATE leases SET holder = ?, epoch = ?, expires_at = ? WHERE name = ?');
    this.extend = this.db.prepare<[number, string, string, number]>('UPDATE leases SET expires_at = ? WHERE name = ? AND holder = ? AND epoch = ?');
    this.raised = this.db.prepare<[number, string, string, number]>('UPDATE leases SET epoch = ? WHERE name = ? AND holder = ? AND epoch = ?');
    this.free = this.db.prepare<[string, string, number]>('UPDATE leases SET expires_at = 0 WHERE name = ? AND holder = ? AND epoch = ?');
  }

  async acquire(name: string, holder: string, ttlMs: number, now = Date.now()): Promise<number | null> {
    try {
      return this.acquireNow(name, holder, ttlMs, now);
    } catch (error) {
      // The file locked past the busy timeout by another process's batch: a try that found the lease busy, made again next second.
      if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return null;
      throw error;
    }
  }

  private acquireNow(name: string, holder: string, ttlMs: number, now: number): number | null {
    return this.db
      .transaction((): number | null => {
        const row = this.read.get(name);
        if (!row) {
          this.insert.run(name, holder, now + ttlMs);
          return 1;
        }
        if (row.holder === holder && row.expires_at > now) {
          this.extend.run(now + ttlMs, name, holder, row.epoch);
          return row.epoch;
        }
        if (row.expires_at > now && !deadHere(row.holder)) return null;
        this.take.run(holder, row.epoch + 1, now + ttlMs, name);
        return row.epoch + 1;
      })
      .immediate();
  }

  async renew(name: string, holder: string, epoch: number, ttlMs: number, now = Date.now()): Promise<boolean> {
    // A lease past its expiry is renewed only while nobody took it over (same holder and epoch).
    return this.extend.run(now + ttlMs, name, holder, epoch).changes === 1;
  }

  async raise(name: string, holder: string, epoch: number, above: number): Promise<number | null> {
    return this.raised.run(above + 1, name, holder, epoch).changes === 1 ? above + 1 : null;
  }

  async release(name: string, holder: string, epoch: number): Promise<void> {
    this.free.run(name, holder, epoch);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
