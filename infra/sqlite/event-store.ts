import { Observable } from 'rxjs';
import { EventEmitter } from 'node:events';
import {
  WrongExpectedRevision,
  type AppendResult,
  type ChainReport,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type StoredEvent,
} from '../../commands/ports.js';
import { chainHash } from '../audit/hash-chain.js';
import { lastEventHash, migrateEventHashes, verifyEventHashes } from './event-hashes.js';
import type { Statement } from './driver.js';
import { fromPosition, openSqlite, toPosition, type SqliteDb } from './open.js';
import { WalFile, type WalSync } from './wal-sync.js';
import { checkpointInBackground } from './background-checkpoints.js';
import { markStage, stageNow } from '../observability/stage-trace.js';
import { StreamHeads } from './stream-heads.js';
import { storedEvent } from './stored-event.js';

type Row = { position: number; id: string; stream: string; revision: number; type: string; data: string; metadata: string };

const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  stream TEXT NOT NULL,
  revision INTEGER NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  metadata TEXT NOT NULL,
  UNIQUE (stream, revision)
);`;

/**
 * How soon a subscriber sees what another process appended (a worker applies an api process's
 * writes within it, docs/decisions/0388): each look reads `PRAGMA data_version`, a few microseconds,
 * and reads the log only when another connection committed, or once every FULL_POLL_MS.
 */
const POLL_MS = 200;
const FULL_POLL_MS = 1000;
const CHUNK = 500;
/** Most appends one group commit takes; the rest wait for the next one. */
const GROUP_MAX = 1000;

/** An append waiting for the next group commit. */
type Pending = {
  readonly stream: string;
  readonly events: readonly NewEvent[];
  readonly expected: ExpectedRevision;
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: unknown) => void;
};

type Outcome = { readonly ok: true; readonly result: AppendResult } | { readonly ok: false; readonly error: unknown };

/** A row a group commit wrote, as stored (`data` and `metadata` are the stored JSON text). */

/** A committed group whose callers wait for the WAL sync: its positions run from `first`; `seq` counts groups in commit order. */
type Unsynced = {
  readonly seq: number;
  readonly first: number;
  readonly answers: readonly (() => void)[];
  readonly refusals: readonly ((error: unknown) => void)[];
  /** The rows the group inserted, as stored, in position order (docs/decisions/0314, first tried in 0302). */
  readonly rows: readonly Row[];
};

/**
 * WAL syncs in flight at once (docs/decisions/0275): a group committed while one sync is under
 * way starts its own instead of waiting for it to end; any further group waits for one of them.
 */
const MAX_SYNCS = 2;

/** Higher than any position: nothing of this process waits for a sync. */
const NO_BOUND = Number.MAX_SAFE_INTEGER;

const toStored = (row: Row): StoredEvent => storedEvent(row, toPosition(row.position));

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
 * The embedded event store: one SQLite table. Appends made while the event loop is busy
 * are committed together (group commit): one transaction, each append inside it in its own
 * savepoint, checked against its own expected revision, so a refused one rolls back alone.
 * The write-ahead log is then synced off the event loop (docs/decisions/0190): every caller
 * is answered, and every reader of `$all` in this process sees the events, only once the
 * shared commit is on disk.
 */
export class SqliteEventStore implements EventStore {
  /** Group commits and the appends they carried since opening (diagnostics and tests). */
  readonly stats = { commits: 0, appends: 0, syncs: 0 };
  private pending: Pending[] = [];
  private flushScheduled = false;
  /** Committed groups whose callers wait for a WAL sync, in commit order (covered by a sync in flight or not yet). */
  private unsynced: Unsynced[] = [];
  /** Groups committed since opening, and the last one a sync already started covers. */
  private groups = 0;
  private covered = 0;
  /** WAL syncs in flight. */
  private readonly syncing = new Set<Promise<void>>();
  /** Set when a WAL sync failed: the store refuses every later append (docs/decisions/0190) ... */
  private failure: unknown = null;
  /** ... and its readers see nothing from the first group that sync covered. */
  private failedFirst: number | null = null;
  /** Set by `close`: appends still queued, or made later, are refused. */
  private closing = false;
  private readonly wal: WalFile;
  private readonly releaseCheckpoints: () => Promise<void>;
  private readonly walSync: WalSync;
  private readonly db: SqliteDb;
  private readonly appended = new EventEmitter();
  /**
   * The last page of `$all` read for a subscriber, handed to the others that ask for the same
   * page (the projections follow `$all` together): read and parsed once. Dropped when new events
   * become readable (a sync) and on every poll (another process may have appended).
   */
  private lastPage: { readonly after: number; readonly bound: number; readonly events: readonly StoredEvent[] } | null = null;
  /**
   * The rows of the groups the last sync made readable, as their commit inserted them: the next
   * page of `$all` is made from them instead of read back when they are exactly what the query
   * would give (docs/decisions/0314, first tried in 0302).
   */
  private handed: readonly Row[] = [];
  /** The rows the last successful append inserted (read by `flush` right after it). */
  private appendedRows: Row[] = [];
  private readonly statements;
  /** Streams' heads as far as this connection knows: a read past one needs no query (docs/decisions/0270). */
  private readonly heads: StreamHeads;
  /**
   * The hash of the newest row (tamper evidence, docs/decisions/0071): re-read at open, after a
   * failed append, and when another connection (another process) committed since this one last
   * looked, which `PRAGMA data_version` tells: read inside each group commit's transaction, whose
   * write lock keeps anyone else from appending until it ends.
   */
  private lastHash: string;
  private readonly chainVersion: Statement<[], number>;
  private chainVersionSeen: number;

  /** `walSync` replaces the WAL sync (tests hold it back or make it fail). */
  constructor(file: string, options: { readonly walSync?: WalSync } = {}) {
    this.db = openSqlite(file);
    // Commits write the WAL without syncing it; `flush` syncs it before anyone hears of them.
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(SCHEMA);
    this.wal = new WalFile(`${file}-wal`);
    // Whatever an earlier process committed and did not sync is made durable before it is read.
    this.wal.syncNow();
    this.walSync = options.walSync ?? this.wal.sync;
    this.releaseCheckpoints = checkpointInBackground(this.db, file);
    migrateEventHashes(this.db);
    this.lastHash = lastEventHash(this.db);
    this.chainVersion = this.db.prepare<[], number>('PRAGMA data_version').pluck();
    this.chainVersionSeen = this.chainVersion.get() ?? 0;
    this.appended.setMaxListeners(0);
    this.heads = new StreamHeads(this.db);
    this.statements = {
      byId: this.db.prepare<[string], Row>('SELECT * FROM events WHERE id = ?'),
      head: this.db.prepare<[string], { revision: number | null }>('SELECT MAX(revision) AS revision FROM events WHERE stream = ?'),
      insert: this.db.prepare('INSERT INTO events (id, stream, revision, type, data, metadata, hash) VALUES (?, ?, ?, ?, ?, ?, ?)'),
      stream: this.db.prepare<[string, number], Row>('SELECT * FROM events WHERE stream = ? AND revision >= ? ORDER BY revision'),
      all: this.db.prepare<[number, number, number], Row>('SELECT * FROM events WHERE position > ? AND position <= ? ORDER BY position LIMIT ?'),
      last: this.db.prepare<[number], { position: number | null }>('SELECT MAX(position) AS position FROM events WHERE position <= ?'),
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
      // The caller will read the stream again: from the head it did not know.
      this.heads.headIs(stream, current ?? -1);
      throw error;
    }
    let revision = current ?? -1;
    let position = 0;
    const rows: Row[] = [];
    // The events of one append usually share one metadata object (a create's two do): its text is made once (docs/decisions/0323).
    let metadataOf: unknown = undefined;
    let metadata = '';
    for (const event of events) {
      revision += 1;
      if (event.metadata !== metadataOf || metadataOf === undefined) {
        metadataOf = event.metadata;
        metadata = JSON.stringify(event.metadata);
      }
      const row = { id: event.id, stream, revision, type: event.type, data: JSON.stringify(event.data), metadata };
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
   * Commits every pending append in one transaction. Each runs in its own savepoint (a
   * transaction function called inside another is one in better-sqlite3): a refused append
   * rolls back alone and the others go on. If the commit itself fails, none is stored and
   * every caller gets that error. The stored ones are answered after the WAL sync.
   */
  private flush(): void {
    this.flushScheduled = false;
    const group = this.pending.splice(0, GROUP_MAX);
    if (this.pending.length > 0) this.scheduleFlush();
    if (group.length === 0) return;
    const started = stageNow();
    let outcomes: Outcome[];
    const rows: Row[] = [];
    try {
      if (this.failure !== null) throw this.failure;
      if (this.closing || !this.db.open) throw new Error('the event store is closed');
      const one = this.db.transaction(this.appendTx);
      outcomes = this.db
        .transaction((appends: readonly Pending[]) => {
          this.chainOntoOthers();
          return appends.map((p): Outcome => {
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
        })
        .immediate(group);
    } catch (error) {
      // The whole group was rolled back, with the hashes chained in memory.
      if (this.db.open) this.lastHash = lastEventHash(this.db);
      for (const p of group) p.reject(error);
      return;
    }
    this.stats.commits += 1;
    this.stats.appends += group.length;
    markStage('commit', started, group.length);
    const answers: (() => void)[] = [];
    const refusals: ((error: unknown) => void)[] = [];
    let first = NO_BOUND;
    group.forEach((p, i) => {
      const outcome = outcomes[i];
      if (!outcome?.ok) {
        p.reject(outcome ? outcome.error : new Error('append lost from its group'));
        return;
      }
      const { result } = outcome;
      this.heads.headIs(p.stream, result.revision);
      first = Math.min(first, fromPosition(result.position) - p.events.length + 1);
      answers.push(() => p.resolve(result));
      refusals.push(p.reject);
    });
    if (answers.length === 0) return;
    this.unsynced.push({ seq: ++this.groups, first, answers, refusals, rows });
    this.startSync();
  }

  /**
   * Starts a WAL sync for the groups committed so far that no sync in flight covers, unless
   * MAX_SYNCS are in flight already (the next one to end starts it). A sync covers every group
   * committed before it started, whichever sync ends first: `fdatasync` flushes the whole file.
   * When it ends, those groups' callers are answered and `$all` readers get their events. A
   * failed sync refuses the callers of every group not yet answered and every later append:
   * whether those events reached the disk is unknown, so the process must not go on as if they
   * had (docs/decisions/0190).
   */
  private startSync(): void {
    if (this.failure !== null || this.syncing.size >= MAX_SYNCS || this.covered === this.groups) return;
    const upTo = (this.covered = this.groups);
    const started = stageNow();
    const alongside = this.syncing.size;
    const sync: Promise<void> = this.walSync().then(
      () => {
        this.syncing.delete(sync);
        this.stats.syncs += 1;
        markStage('sync', started, alongside);
        this.synced(upTo);
        this.startSync();
      },
      (error: unknown) => {
        this.syncing.delete(sync);
        this.syncFailed(error);
      },
    );
    this.syncing.add(sync);
  }

  /** Answers the groups up to `upTo` (the commit order) and lets readers see them. */
  private synced(upTo: number): void {
    if (this.failure !== null) return;
    let count = 0;
    while (count < this.unsynced.length && this.unsynced[count]!.seq <= upTo) count++;
    if (count === 0) return;
    const answering = stageNow();
    const done = this.unsynced.splice(0, count);
    for (const group of done) for (const answer of group.answers) answer();
    this.lastPage = null;
    this.handed = done.length === 1 ? done[0]!.rows : done.flatMap((group) => group.rows);
    this.appended.emit('append');
    markStage('answer-and-emit', answering, count);
  }

  private syncFailed(error: unknown): void {
    if (this.failure !== null) return;
    this.failure = error;
    this.failedFirst = this.unsynced[0]?.first ?? null;
    for (const group of this.unsynced.splice(0)) for (const refuse of group.refusals) refuse(error);
    for (const p of this.pending.splice(0)) p.reject(error);
  }

  /** Up to CHUNK readable events after `after`; shared with other subscribers asking the same (read-only). */
  private page(after: number): readonly StoredEvent[] {
    const bound = this.readable;
    const memo = this.lastPage;
    if (memo && memo.after === after && memo.bound === bound) return memo.events;
    const events = (this.handedPage(after, bound) ?? this.statements.all.all(after, bound, CHUNK)).map(toStored);
    this.lastPage = { after, bound, events };
    return events;
  }

  /**
   * The rows the query of `page` would give, from the handed-over ones, or null when they may
   * not be all of them. The handed rows must start right after `after` with no gap: positions
   * are the table's key, so no other row lies among them. Beyond them, another process may
   * have appended (it shares the file): unless a handed row past the last taken one, the page's
   * size or its bound shows the page ends there, one look at the highest position decides.
   */
  private handedPage(after: number, bound: number): readonly Row[] | null {
    const rows = this.handed;
    if (rows.length === 0 || rows[0]!.position !== after + 1) return null;
    let n = 0;
    while (n < rows.length && n < CHUNK && rows[n]!.position === after + 1 + n && rows[n]!.position <= bound) n++;
    const last = after + n;
    if (n < CHUNK) {
      if (n < rows.length) {
        // Stopped at a gap (someone else's rows may fill it), or at the bound.
        if (rows[n]!.position !== last + 1) return null;
      } else if (this.statements.last.get(bound)?.position !== last) return null;
    }
    return n === rows.length ? rows : rows.slice(0, n);
  }

  /** The highest position readers of this process may see: below the first group not yet synced. */
  private get readable(): number {
    const first = this.failedFirst ?? this.unsynced[0]?.first;
    return first === undefined ? NO_BOUND : first - 1;
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  /** Inside a group commit: the newest row's hash read again if another connection committed since the last look. */
  private chainOntoOthers(): void {
    const version = this.chainVersion.get() ?? 0;
    if (version === this.chainVersionSeen) return;
    this.chainVersionSeen = version;
    this.lastHash = lastEventHash(this.db);
  }

  /** An append whose first event id is stored already: the same append retried. */
  private replayed(stream: string, events: readonly NewEvent[], first: Row): AppendResult {
    if (first.stream !== stream) throw new Error(`event id ${first.id} is already used in stream ${first.stream}`);
    const stored = this.statements.stream.all(stream, first.revision).slice(0, events.length);
    const same = stored.length === events.length && stored.every((row, i) => row.id === events[i]?.id);
    const last = stored[stored.length - 1];
    if (!same || !last) throw new Error(`event ids of a retried append to ${stream} do not match the stored ones`);
    return { revision: last.revision, position: toPosition(last.position) };
  }

  /** Queued for the next group commit, which runs once the event loop has handled what is ready now. */
  appendToStream(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (this.failure !== null) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending.push({ stream, events, expected, resolve, reject });
      this.scheduleFlush();
    });
  }

  async verifyChain(): Promise<ChainReport> {
    return verifyEventHashes(this.db);
  }

  async readStream(stream: string, fromRevision = 0): Promise<StoredEvent[]> {
    if (this.heads.nothingFrom(stream, fromRevision)) return [];
    const events = this.statements.stream.all(stream, fromRevision).map(toStored);
    this.heads.read(stream, fromRevision, events[events.length - 1]?.revision);
    return events;
  }

  async readAll(after: Position, limit: number): Promise<StoredEvent[]> {
    return this.statements.all.all(fromPosition(after), this.readable, limit).map(toStored);
  }

  async headPosition(): Promise<Position> {
    const last = this.statements.last.get(this.readable)?.position;
    return last ? toPosition(last) : '';
  }

  subscribeToAll(after: Position): Observable<StoredEvent> {
    return new Observable<StoredEvent>((subscriber) => {
      let last = fromPosition(after);
      let pumping = false;
      let again = false;
      let closed = false;
      const pump = (): void => {
        if (closed) return;
        if (pumping) {
          again = true;
          return;
        }
        if (!this.db.open) {
          subscriber.complete();
          return;
        }
        pumping = true;
        let rows: readonly StoredEvent[];
        try {
          rows = this.page(last);
          for (const event of rows) {
            last = fromPosition(event.position);
            subscriber.next(event);
          }
        } finally {
          pumping = false;
        }
        if (rows.length === CHUNK || again) {
          again = false;
          setImmediate(pump);
        }
      };
      const onAppend = (): void => pump();
      const onClose = (): void => subscriber.complete();
      this.appended.on('append', onAppend);
      this.appended.on('close', onClose);
      let seen = this.chainVersion.get() ?? 0;
      let full = Date.now();
      const timer = setInterval(() => {
        const version = this.db.open ? (this.chainVersion.get() ?? 0) : seen;
        if (version === seen && Date.now() - full < FULL_POLL_MS) return;
        seen = version;
        full = Date.now();
        this.lastPage = null;
        pump();
      }, POLL_MS);
      timer.unref();
      setImmediate(pump);
      return () => {
        closed = true;
        clearInterval(timer);
        this.appended.off('append', onAppend);
        this.appended.off('close', onClose);
      };
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    // Groups already committed are answered (or refused) by their sync before the file closes.
    while (this.syncing.size > 0) await Promise.all([...this.syncing]);
    await this.releaseCheckpoints();
    this.appended.emit('close');
    this.appended.removeAllListeners();
    if (this.db.open) this.db.close();
    this.wal.close();
  }
}
