import { DataVersionLook } from './data-version-look.js';
import type { Statement } from './driver.js';
import type { SqliteDb } from './open.js';
import type { TextMemoryIndex } from './text-memory-index.js';
import { loadTextIndex, putTexts, type TextRowText } from './text-index-load.js';
import type { TextSearchThread } from './text-search-client.js';
import { Tokenizer } from './text-tokens.js';

/**
 * The generation of the FTS rows: every writer of `search_text` adds one in the transaction
 * that changes them (TextChanges), so a reader knows whether its in-memory copy is current.
 */
export const GENERATION_SCHEMA = 'CREATE TABLE IF NOT EXISTS search_generation (id INTEGER PRIMARY KEY, value INTEGER NOT NULL);';

export { scopeOf } from './text-index-load.js';

/** The process's own writer of the file, seen from the text search thread (docs/decisions/0305). */
export type OwnWriter = {
  /** Applies the changes the writer has posted so far. */
  readonly takePosted: () => void;
  /** The generation the writer is committing (or committed last). */
  readonly committing: () => number;
};

/** A change of one document's FTS rows: its old rows' texts (null: not read) out, its new rows in. */
export type Change =
  | { readonly kind: 'remove'; readonly doc: number; readonly texts: readonly string[] | null }
  | { readonly kind: 'put'; readonly doc: number; readonly scope: string; readonly key: string; readonly rows: readonly TextRowText[] };

/** Files of up to this many FTS rows are loaded at once, on the search that needs them; bigger ones a page per turn of the event loop. */
export const SYNC_LOAD_ROWS = 20_000;

/** Milliseconds of loading between two turns of the event loop. */
const SLICE_MS = 10;

/**
 * Keeps the in-memory text index of a delivery index file in step with its FTS rows
 * (docs/decisions/0200). The first search loads it (text-index-load.ts): a small file at once, a
 * big one in the background, 10 ms of work per turn of the event loop (word searches wait for it,
 * SqliteSearchIndex.searchText). Changes this process commits are applied right after their commit
 * (TextChanges; those committed during a background load are queued and applied after it).
 * Before each search, SQLite's `data_version` tells whether any other connection committed
 * since the last look, and if so the stored generation is read: a generation the copy does not
 * know (another process or connection wrote the rows) drops it, and it is loaded again.
 */
export class TextIndexKeeper {
  private index: TextMemoryIndex | null = null;
  private generation = -1;
  private dataVersion = -1;
  private loading: Promise<void> | null = null;
  private queued: { changes: readonly Change[]; generation: number }[] = [];
  private readonly tokenizer: Tokenizer;
  private generationStatement: Statement<[], number> | null = null;
  private lastRowStatement: Statement<[], number> | null = null;
  /** Milliseconds the last load took (from its start to its end), for logs and measurements. */
  lastLoadMs = 0;
  /** Loads begun (the first, and each after the copy was dropped), for tests and measurements. */
  loads = 0;

  constructor(
    private readonly db: SqliteDb,
    private readonly file: string,
    private readonly syncLoadRows = SYNC_LOAD_ROWS,
    /** The reader's data_version, shared with the search fields cache (one read a search, docs/decisions/0280). */
    private readonly version = new DataVersionLook(db),
    /** In the text search thread, its process's own writer, whose changes come by message (docs/decisions/0305). */
    private readonly writer: OwnWriter | null = null,
  ) {
    this.tokenizer = new Tokenizer(db);
  }

  get loaded(): boolean {
    return this.index !== null;
  }

  /** Whether changes are worth recording in full (a copy is loaded or loading). */
  get wantsChanges(): boolean {
    return this.index !== null || this.loading !== null;
  }

  /** The index as the file is now; null while it loads in the background. */
  current(): TextMemoryIndex | null {
    const version = this.version.borrow();
    if (this.index && version !== this.dataVersion && this.storedGeneration() !== this.generation && !this.ownCommitInFlight()) this.index = null;
    // Not noted while this process's own commit is on its way: the next search looks again.
    if (this.index === null || this.storedAt === this.generation) this.dataVersion = version;
    if (!this.index && !this.loading) {
      this.lastRowStatement ??= this.db.prepare<[], number>('SELECT rowid FROM search_text ORDER BY rowid DESC LIMIT 1').pluck();
      if ((this.lastRowStatement.get() ?? 0) <= this.syncLoadRows) this.loadNow();
      else this.loading = this.loadInBackground();
    }
    return this.afterLook();
  }

  /**
   * The index as the search's own look (`prepare`, just before it) left it, without reading
   * `data_version` again (docs/decisions/0280): what this process's writer commits in between
   * reaches the index through `apply`, and another process's commit in between is one that came
   * just after the search, as it would have a microsecond later.
   */
  afterLook(): TextMemoryIndex | null {
    if (this.index?.wantsCompaction) this.index.compact();
    return this.index;
  }

  /**
   * Before a search: starts the load if needed, and answers the load under way (a word search
   * waits for it: FTS5 would take longer, and its work would slow the load), or null. The search
   * then takes the index with `afterLook`.
   */
  prepare(): Promise<void> | null {
    this.current();
    return this.loading;
  }

  /** Settles when no background load is under way (for tests and measurements). */
  async settled(): Promise<void> {
    while (this.loading) await this.loading;
  }

  /** Query terms as FTS5 would tokenize each. */
  tokenize(terms: readonly string[]): string[][] {
    return this.tokenizer.tokenize(terms);
  }

  /** The stored generation the last look read. */
  private storedAt = -1;

  private storedGeneration(): number {
    this.generationStatement ??= this.db.prepare<[], number>('SELECT value FROM search_generation WHERE id = 0').pluck();
    this.storedAt = this.generationStatement.get() ?? 0;
    return this.storedAt;
  }

  /**
   * In the text search thread: a stored generation this copy does not know may be this process's
   * own writer's commit, whose changes are posted right after it. Those posted are taken first
   * (they may take the copy past the generation read, if the writer committed again meanwhile);
   * if the copy is then one behind and the writer is committing exactly that generation, the
   * changes are on their way (the search was posted before them: it may answer the state before
   * the commit) and the copy is kept; anything else is another connection's or process's write.
   */
  private ownCommitInFlight(): boolean {
    if (!this.writer) return false;
    this.writer.takePosted();
    // At or past what the look read: the writer committed again between the read and the take,
    // and its changes (posted after that later COMMIT) are in the copy already.
    if (this.storedAt <= this.generation) return true;
    return this.storedAt === this.generation + 1 && this.writer.committing() === this.storedAt;
  }

  private loadNow(): void {
    this.loads += 1;
    const started = performance.now();
    const steps = loadTextIndex(this.file, this.tokenizer);
    let step = steps.next();
    while (!step.done) step = steps.next();
    this.install(step.value, started);
  }

  private async loadInBackground(): Promise<void> {
    this.loads += 1;
    const started = performance.now();
    try {
      const steps = loadTextIndex(this.file, this.tokenizer);
      let step = steps.next();
      while (!step.done) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        const until = performance.now() + SLICE_MS;
        do step = steps.next();
        while (!step.done && performance.now() < until);
      }
      this.install(step.value, started);
    } catch {
      // The file closed under the load (the service stopping): searches keep going to FTS5.
      this.queued = [];
    } finally {
      this.loading = null;
    }
  }

  private install(loaded: { index: TextMemoryIndex; generation: number }, started: number): void {
    this.index = loaded.index;
    this.generation = loaded.generation;
    // The load read an earlier state than the last look at data_version: the next search compares generations.
    this.dataVersion = -1;
    const queued = this.queued;
    this.queued = [];
    for (const { changes, generation } of queued) if (generation > this.generation) this.apply(changes, generation);
    this.lastLoadMs = performance.now() - started;
  }

  /** Applies the changes a writer of this file committed as `generation` (the copy must be at the one before, or it is dropped). */
  apply(changes: readonly Change[], generation: number): void {
    if (this.loading && !this.index) {
      this.queued.push({ changes, generation });
      return;
    }
    if (!this.index) return;
    // Already in the copy: a thread's load read the file after this commit (docs/decisions/0305).
    if (generation <= this.generation) return;
    if (generation !== this.generation + 1) {
      this.index = null;
      return;
    }
    for (const change of changes) {
      if (change.kind === 'remove') this.index.remove(change.doc, change.texts ? this.tokenizer.tokenize(change.texts) : undefined);
      else putTexts(this.index, this.tokenizer, change, change.rows);
    }
    this.generation = generation;
  }
}

/** What a writer connection changed in the FTS rows during one transaction (SqliteSearchTables records it). */
export class TextChanges {
  private changes: Change[] = [];
  private generation = -1;

  constructor(
    private readonly keeper: TextIndexKeeper | null,
    /** The text search thread's copy, which takes the changes by message (docs/decisions/0305). */
    private readonly thread: TextSearchThread | null = null,
  ) {}

  /** Whether removed rows' texts are worth reading (only for a loaded in-memory copy, or the thread's). */
  get wantsTexts(): boolean {
    return (this.keeper?.wantsChanges ?? false) || (this.thread?.running ?? false);
  }

  removed(doc: number, texts: readonly string[] | null): void {
    this.changes.push({ kind: 'remove', doc, texts });
  }

  put(doc: number, scope: string, key: string, rows: readonly TextRowText[]): void {
    this.changes.push({ kind: 'put', doc, scope, key, rows });
  }

  /** Inside the writer's transaction, before COMMIT: the generation moves on when rows changed. */
  beforeCommit(db: SqliteDb): void {
    if (this.changes.length === 0) return;
    this.generation = db
      .prepare<[], { value: number }>('INSERT INTO search_generation (id, value) VALUES (0, 1) ON CONFLICT (id) DO UPDATE SET value = value + 1 RETURNING value')
      .get()!.value;
    this.thread?.committing(this.generation);
  }

  /** After COMMIT: the in-memory copy takes the changes. */
  afterCommit(): void {
    if (this.changes.length > 0) {
      this.keeper?.apply(this.changes, this.generation);
      this.thread?.committed(this.changes, this.generation);
    }
    this.changes = [];
  }

  /** After ROLLBACK: nothing happened. */
  discard(): void {
    this.changes = [];
  }
}
