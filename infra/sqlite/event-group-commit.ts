import { WrongExpectedRevision, type AppendResult, type ExpectedRevision, type NewEvent } from '../../commands/ports.js';
import { chainHash } from '../audit/hash-chain.js';
import { lastEventHash } from './event-hashes.js';
import { toPosition, type SqliteDb } from './open.js';

/** A row of the events table as stored (`data` and `metadata` the JSON text written). */
export type EventRow = { position: number; id: string; stream: string; revision: number; type: string; data: string; metadata: string };

/** One append of a group: its stream, events and expected revision. */
export type GroupAppend = { readonly stream: string; readonly events: readonly NewEvent[]; readonly expected: ExpectedRevision };

export type GroupOutcome = { readonly ok: true; readonly result: AppendResult } | { readonly ok: false; readonly error: unknown };

function check(stream: string, expected: ExpectedRevision, current: number | null): void {
  const actual = current ?? 'no_stream';
  const ok =
    expected === 'any' ||
    (expected === 'no_stream' && current === null) ||
    (expected === 'stream_exists' && current !== null) ||
    (typeof expected === 'number' && current === expected);
  if (!ok) throw new WrongExpectedRevision(stream, expected, actual);
}

/**
 * The group commit's SQL on one writing connection, shared by the in-process event store and its
 * writer thread (docs/decisions/0315): every append of a group in one `BEGIN IMMEDIATE … COMMIT`,
 * each in its own savepoint (a transaction function called inside another is one in
 * better-sqlite3), checked against its own expected revision, so a refused one rolls back alone.
 * An append whose first event id is stored already is the same append retried (`replayed`). Keeps
 * the hash chain's last hash (docs/decisions/0071).
 */
export class GroupCommit {
  /** The hash of the newest row: re-read at open and after a rolled-back append. */
  private lastHash: string;
  /** The rows the last successful append inserted (read by `commit` right after it). */
  private appendedRows: EventRow[] = [];
  private readonly statements;

  /** `headIs` hears of the head a refused append's check read (the caller reads the stream again from it). */
  constructor(
    private readonly db: SqliteDb,
    private readonly headIs: (stream: string, revision: number) => void = () => {},
  ) {
    this.lastHash = lastEventHash(db);
    this.statements = {
      byId: db.prepare<[string], EventRow>('SELECT * FROM events WHERE id = ?'),
      head: db.prepare<[string], { revision: number | null }>('SELECT MAX(revision) AS revision FROM events WHERE stream = ?'),
      insert: db.prepare('INSERT INTO events (id, stream, revision, type, data, metadata, hash) VALUES (?, ?, ?, ?, ?, ?, ?)'),
      stream: db.prepare<[string, number], EventRow>('SELECT * FROM events WHERE stream = ? AND revision >= ? ORDER BY revision'),
    };
  }

  private readonly appendTx = (stream: string, events: readonly NewEvent[], expected: ExpectedRevision): AppendResult => {
    const first = events[0];
    if (!first) throw new Error('append of no events');
    const earlier = this.statements.byId.get(first.id);
    if (earlier) return this.replayed(stream, events, earlier);
    const current = this.statements.head.get(stream)?.revision ?? null;
    try {
      check(stream, expected, current);
    } catch (error) {
      this.headIs(stream, current ?? -1);
      throw error;
    }
    let revision = current ?? -1;
    let position = 0;
    const rows: EventRow[] = [];
    for (const event of events) {
      revision += 1;
      const row = { id: event.id, stream, revision, type: event.type, data: JSON.stringify(event.data), metadata: JSON.stringify(event.metadata) };
      const hash = chainHash(this.lastHash, row);
      const info = this.statements.insert.run(row.id, stream, revision, row.type, row.data, row.metadata, hash);
      this.lastHash = hash;
      position = Number(info.lastInsertRowid);
      rows.push({ position, ...row });
    }
    this.appendedRows = rows;
    return { revision, position: toPosition(position) };
  };

  /**
   * Commits `group` in one transaction and gives each append's outcome and the rows inserted, in
   * position order. Inside the transaction, `hooks.first` is called before any append (it returns
   * true when another connection committed since: the chain's last hash is read again), and
   * `hooks.beforeCommit` with the rows, before the `COMMIT` makes them visible to other
   * connections. If the transaction itself fails, nothing is stored and the error is thrown.
   */
  commit(
    group: readonly GroupAppend[],
    hooks: { readonly first?: () => boolean; readonly beforeCommit?: (rows: readonly EventRow[]) => void } = {},
  ): { outcomes: GroupOutcome[]; rows: EventRow[] } {
    const rows: EventRow[] = [];
    try {
      const one = this.db.transaction(this.appendTx);
      const outcomes = this.db
        .transaction((appends: readonly GroupAppend[]) => {
          if (hooks.first?.()) this.lastHash = lastEventHash(this.db);
          const outcomes = appends.map((p): GroupOutcome => {
            try {
              this.appendedRows = [];
              const result = one(p.stream, p.events, p.expected);
              // A retried append (`replayed`) inserted nothing and hands over nothing.
              for (const row of this.appendedRows) rows.push(row);
              return { ok: true, result };
            } catch (error) {
              // The rows this append hashed in memory were rolled back with its savepoint.
              this.lastHash = lastEventHash(this.db);
              return { ok: false, error };
            }
          });
          hooks.beforeCommit?.(rows);
          return outcomes;
        })
        .immediate(group);
      return { outcomes, rows };
    } catch (error) {
      // The whole group was rolled back, with the hashes chained in memory.
      if (this.db.open) this.lastHash = lastEventHash(this.db);
      throw error;
    }
  }

  /** An append whose first event id is stored already: the same append retried. */
  private replayed(stream: string, events: readonly NewEvent[], first: EventRow): AppendResult {
    if (first.stream !== stream) throw new Error(`event id ${first.id} is already used in stream ${first.stream}`);
    const stored = this.statements.stream.all(stream, first.revision).slice(0, events.length);
    const same = stored.length === events.length && stored.every((row, i) => row.id === events[i]?.id);
    const last = stored[stored.length - 1];
    if (!same || !last) throw new Error(`event ids of a retried append to ${stream} do not match the stored ones`);
    return { revision: last.revision, position: toPosition(last.position) };
  }
}
