import type { UsedSignatures } from '../../read-api/auth/secure-signature.js';
import { openSqlite, type SqliteDb } from './open.js';

/** Sweep expired rows once every this many uses. */
const SWEEP_EVERY = 1000;

/**
 * Used Secure signatures in a SQLite file of the data directory (docs/decisions/0335): every
 * process on the directory sees them, and a restart keeps them. One upsert per use: a row that
 * exists and has not expired is left alone (no change: a replay); an expired one is taken over.
 * Commits are atomic but not synced one by one (synchronous NORMAL, as the derived files): a
 * process that stops loses nothing, a power cut may lose the last few.
 */
export class SqliteUsedSignatures implements UsedSignatures {
  private readonly db: SqliteDb;
  private readonly use;
  private readonly sweep;
  private uses = 0;

  constructor(file: string) {
    this.db = openSqlite(file, { derived: true });
    this.db.exec('CREATE TABLE IF NOT EXISTS used_signatures (id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL) WITHOUT ROWID');
    this.use = this.db.prepare(
      'INSERT INTO used_signatures (id, expires_at) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at WHERE used_signatures.expires_at <= ?',
    );
    this.sweep = this.db.prepare('DELETE FROM used_signatures WHERE expires_at <= ?');
  }

  async firstUse(id: string, expiresAt: number, now: number): Promise<boolean> {
    if (++this.uses % SWEEP_EVERY === 0) this.sweep.run(now);
    return this.use.run(id, expiresAt, now).changes === 1;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
