import type { Statement } from './driver.js';
import type { SqliteDb } from './open.js';
import { TextMemoryIndex, type TokenRow } from './text-memory-index.js';
import { Tokenizer } from './text-tokens.js';

/**
 * The generation of the FTS rows: every writer of `search_text` adds one in the transaction
 * that changes them (TextChanges), so a reader knows whether its in-memory copy is current.
 */
export const GENERATION_SCHEMA = 'CREATE TABLE IF NOT EXISTS search_generation (id INTEGER PRIMARY KEY, value INTEGER NOT NULL);';

export const scopeOf = (env: string, folder: string): string => `${env}/${folder}`;

export type TextRowText = { readonly field: string; readonly locale: string; readonly text: string };

/** A change of one document's FTS rows: its old rows' texts (null: not read) out, its new rows in. */
type Change =
  | { readonly kind: 'remove'; readonly doc: number; readonly texts: readonly string[] | null }
  | { readonly kind: 'put'; readonly doc: number; readonly scope: string; readonly key: string; readonly rows: readonly TextRowText[] };

/** Rows read at a time when loading. */
const LOAD_PAGE = 4096;

type LoadRow = { rowid: number; doc: number; field: string; locale: string; body: string; env: string; folder: string; key: string };

/**
 * Keeps the in-memory text index of a delivery index file in step with its FTS rows
 * (docs/decisions/0200). Loaded on the first search, from the reader connection, in one read
 * transaction with the generation it reflects. Changes this process commits are applied right
 * after their commit (TextChanges); before each search, SQLite's `data_version` tells whether
 * any other connection committed since the last look, and if so the stored generation is read:
 * a generation the copy does not know (another process or connection wrote the rows) reloads it.
 */
export class TextIndexKeeper {
  private index: TextMemoryIndex | null = null;
  private generation = -1;
  private dataVersion = -1;
  private readonly tokenizer: Tokenizer;
  private versionStatement: Statement<[], number> | null = null;
  private generationStatement: Statement<[], number> | null = null;
  /** Milliseconds the last load took, for logs and the benchmark's notes. */
  lastLoadMs = 0;

  constructor(private readonly db: SqliteDb) {
    this.tokenizer = new Tokenizer(db);
  }

  get loaded(): boolean {
    return this.index !== null;
  }

  /** The index as the file is now (loaded or reloaded if needed). */
  current(): TextMemoryIndex {
    this.versionStatement ??= this.db.prepare<[], number>('PRAGMA data_version').pluck();
    const version = this.versionStatement.get()!;
    if (this.index && version !== this.dataVersion && this.storedGeneration() !== this.generation) this.index = null;
    this.dataVersion = version;
    if (!this.index) this.load();
    if (this.index!.wantsCompaction) this.index!.compact();
    return this.index!;
  }

  /** Query terms as FTS5 would tokenize each. */
  tokenize(terms: readonly string[]): string[][] {
    return this.tokenizer.tokenize(terms);
  }

  private storedGeneration(): number {
    this.generationStatement ??= this.db.prepare<[], number>('SELECT value FROM search_generation WHERE id = 0').pluck();
    return this.generationStatement.get() ?? 0;
  }

  private load(): void {
    const started = performance.now();
    const index = new TextMemoryIndex();
    this.db.transaction(() => {
      this.generation = this.storedGeneration();
      // In row order, a document's rows come together (they are inserted together); a document
      // met again later has all its rows read through doc_texts and put again.
      // Read in pages of row ids: FTS5 is asked for the tokens of non-ASCII texts in between.
      const page = this.db.prepare<[number, number], LoadRow>(
        `SELECT s.rowid AS rowid, s.doc AS doc, s.field AS field, s.locale AS locale, s.body AS body, d.env AS env, d.folder AS folder, d.key AS key
         FROM search_text s JOIN docs d ON d.rowid = s.doc WHERE s.rowid > ? AND d.data IS NOT NULL ORDER BY s.rowid LIMIT ?`,
      );
      const seen = new Set<number>();
      const again = new Set<number>();
      let doc: LoadRow | null = null;
      let texts: TextRowText[] = [];
      const flush = () => {
        if (doc) this.putTexts(index, doc.doc, scopeOf(doc.env, doc.folder), doc.key, texts);
        texts = [];
      };
      for (let after = 0; ; ) {
        const rows = page.all(after, LOAD_PAGE);
        for (const row of rows) {
          if (row.doc !== doc?.doc) {
            flush();
            if (seen.has(row.doc)) again.add(row.doc);
            seen.add(row.doc);
            doc = row;
          }
          texts.push({ field: row.field, locale: row.locale, text: row.body });
        }
        if (rows.length < LOAD_PAGE) break;
        after = rows[rows.length - 1]!.rowid;
      }
      flush();
      const ofDoc = this.db.prepare<[number], LoadRow>(
        `SELECT t.trow AS rowid, t.doc AS doc, s.field AS field, s.locale AS locale, s.body AS body, d.env AS env, d.folder AS folder, d.key AS key
         FROM doc_texts t JOIN search_text s ON s.rowid = t.trow JOIN docs d ON d.rowid = t.doc WHERE t.doc = ? AND d.data IS NOT NULL ORDER BY t.trow`,
      );
      for (const id of again) {
        const all = ofDoc.all(id);
        if (all.length === 0) continue;
        this.putTexts(index, id, scopeOf(all[0]!.env, all[0]!.folder), all[0]!.key, all.map((r) => ({ field: r.field, locale: r.locale, text: r.body })));
      }
    })();
    index.trim();
    this.index = index;
    this.lastLoadMs = performance.now() - started;
  }

  private putTexts(index: TextMemoryIndex, doc: number, scope: string, key: string, texts: readonly TextRowText[], removed?: readonly (readonly string[])[]): void {
    const tokens = this.tokenizer.tokenize(texts.map((t) => t.text));
    const rows: TokenRow[] = texts.map((t, i) => ({ field: t.field, locale: t.locale, tokens: tokens[i]! }));
    index.put({ doc, scope, key, rows }, removed);
  }

  /** Applies the changes a writer of this file committed as `generation` (the copy must be at the one before, or it is dropped). */
  apply(changes: readonly Change[], generation: number): void {
    if (!this.index) return;
    if (generation !== this.generation + 1) {
      this.index = null;
      return;
    }
    for (const change of changes) {
      if (change.kind === 'remove') this.index.remove(change.doc, change.texts ? this.tokenizer.tokenize(change.texts) : undefined);
      else this.putTexts(this.index, change.doc, change.scope, change.key, change.rows);
    }
    this.generation = generation;
  }
}

/** What a writer connection changed in the FTS rows during one transaction (SqliteSearchTables records it). */
export class TextChanges {
  private changes: Change[] = [];
  private generation = -1;

  constructor(private readonly keeper: TextIndexKeeper | null) {}

  /** Whether removed rows' texts are worth reading (only for a loaded in-memory copy). */
  get wantsTexts(): boolean {
    return this.keeper?.loaded ?? false;
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
  }

  /** After COMMIT: the in-memory copy takes the changes. */
  afterCommit(): void {
    if (this.changes.length > 0) this.keeper?.apply(this.changes, this.generation);
    this.changes = [];
  }

  /** After ROLLBACK: nothing happened. */
  discard(): void {
    this.changes = [];
  }
}
