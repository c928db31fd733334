import type { ChainReport } from '../../commands/ports.js';
import { ChainVerifier, chainHash, GENESIS, type StoredChainRow } from '../audit/hash-chain.js';
import { toPosition, type SqliteDb } from './open.js';

type Row = { position: number; id: string; stream: string; revision: number; type: string; data: string; metadata: string; hash: string | null };

const CHUNK = 1000;

const chainRow = (row: Row): StoredChainRow => ({ ...row, position: toPosition(row.position) });

/**
 * Gives an events table written before tamper evidence its `hash` column and chains the rows
 * it holds, oldest first, in one transaction (docs/decisions/0071). Runs once: a table that
 * has the column is left alone, so a hash removed later is reported, never re-made.
 */
export function migrateEventHashes(db: SqliteDb): void {
  const columns = db.prepare<[], { name: string }>('PRAGMA table_info(events)').all();
  if (columns.some((c) => c.name === 'hash')) return;
  db.transaction(() => {
    db.exec('ALTER TABLE events ADD COLUMN hash TEXT');
    const page = db.prepare<[number, number], Row>('SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?');
    const set = db.prepare<[string, number]>('UPDATE events SET hash = ? WHERE position = ?');
    let previous = GENESIS;
    let after = 0;
    for (let rows = page.all(after, CHUNK); rows.length > 0; rows = page.all(after, CHUNK)) {
      for (const row of rows) {
        previous = chainHash(previous, row);
        set.run(previous, row.position);
        after = row.position;
      }
    }
  }).immediate();
}

/** The hash of the newest event: the previous hash of the next insert. */
export function lastEventHash(db: SqliteDb): string {
  const row = db.prepare<[], { hash: string | null }>('SELECT hash FROM events ORDER BY position DESC LIMIT 1').get();
  return row?.hash ?? GENESIS;
}

/**
 * Recomputes the whole chain in pages (a read: a running service keeps appending meanwhile),
 * yielding to the event loop between pages so that a long log does not stall the service.
 */
export async function verifyEventHashes(db: SqliteDb): Promise<ChainReport> {
  const page = db.prepare<[number, number], Row>('SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?');
  const verifier = new ChainVerifier();
  let after = 0;
  for (let rows = page.all(after, CHUNK); rows.length > 0; rows = page.all(after, CHUNK)) {
    for (const row of rows) {
      if (!verifier.next(chainRow(row))) return verifier.report();
      after = row.position;
    }
    await new Promise((resolve) => setImmediate(resolve));
    if (!db.open) throw new Error('the event store was closed during verification');
  }
  return verifier.report();
}
