import type { EventStore, Position, StoredEvent } from '../../commands/ports.js';
import type { StoredChainRow } from '../audit/hash-chain.js';
import { fromPosition, openSqlite, toPosition, type SqliteDb } from './open.js';
import { WalFile } from './wal-sync.js';

/** A row as an array (the statement's raw mode: no object built per row), in the order COLUMNS names them. */
type Row = [position: number, id: string, stream: string, revision: number, type: string, data: string, metadata: string];
const COLUMNS = 'position, id, stream, revision, type, data, metadata';

/** What a rebuild reads of the log: pages of `$all` in order, and where it ends. */
export type EventLog = Pick<EventStore, 'readAll' | 'headPosition' | 'close'>;

/**
 * The embedded event log for reading it from the start, as a rebuild does (docs/decisions/0225):
 * one connection and two statements, none of the event store's writing side (no group commit,
 * no hash chain to check or migrate, no checkpoint thread, no rxjs). It reads only events whose
 * WAL bytes are on disk: it syncs the WAL when it opens and again whenever a read reaches what
 * it knows to be synced, so a crash of the writing service cannot take back an event it has read.
 */
export class SqliteEventLogReader implements EventLog {
  private readonly db: SqliteDb;
  private readonly wal: WalFile;
  private readonly statements;
  /** The newest position known to be on disk. */
  private synced = 0;

  constructor(file: string) {
    this.db = openSqlite(file);
    this.wal = new WalFile(`${file}-wal`);
    this.statements = {
      all: this.db.prepare<[number, number, number], Row>(`SELECT ${COLUMNS} FROM events WHERE position > ? AND position <= ? ORDER BY position LIMIT ?`).raw(),
      chain: this.db.prepare<[number, number, number], StoredChainRow & { position: number }>(`SELECT ${COLUMNS}, hash FROM events WHERE position > ? AND position <= ? ORDER BY position LIMIT ?`),
      last: this.db.prepare<[], { position: number | null }>('SELECT MAX(position) AS position FROM events'),
    };
    this.sync();
  }

  /** Syncs the WAL, then takes the newest committed position as readable. */
  private sync(): void {
    this.wal.syncNow();
    this.synced = this.statements.last.get()?.position ?? 0;
  }

  async readAll(after: Position, limit: number): Promise<StoredEvent[]> {
    const from = fromPosition(after);
    if (from >= this.synced) this.sync();
    return this.statements.all.all(from, this.synced, limit).map(([position, id, stream, revision, type, data, metadata]) => ({
      id,
      stream,
      revision,
      position: toPosition(position),
      type,
      data: JSON.parse(data),
      metadata: JSON.parse(metadata),
    }));
  }

  /** Up to `limit` rows after `after` as stored, with their chained hash (the export's and the verifier's read). */
  readChain(after: Position, limit: number): StoredChainRow[] {
    const from = fromPosition(after);
    if (from >= this.synced) this.sync();
    return this.statements.chain.all(from, this.synced, limit).map((row) => ({ ...row, position: toPosition(row.position) }));
  }

  async headPosition(): Promise<Position> {
    this.sync();
    return this.synced ? toPosition(this.synced) : '';
  }

  async close(): Promise<void> {
    this.wal.close();
    if (this.db.open) this.db.close();
  }
}
