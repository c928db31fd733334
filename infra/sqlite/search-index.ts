import type { Position } from '../../commands/ports.js';
import { effectiveSort, type DeliveryQuery } from '../../projections/delivery-query.js';
import { fold } from '../../projections/delivery-query-eval.js';
import type { CursorKey, DeliveryDoc, Page, PageRequest, SearchIndex, SearchIndexTx, StoredDoc, StoredPage, Scored, SearchEntries, TextQuery, VectorQuery } from '../../projections/ports.js';
import { pageSql, type SqlParam } from './delivery-query-sql.js';
import { Mutex } from '../mutex.js';
import { activeFields, type SearchField } from '../../projections/search-fields.js';
import { openSqlite, type SqliteDb } from './open.js';
import { checkpointInBackground, checkpointWithoutThread } from './background-checkpoints.js';
import { migrateTextFormat, migrateTextRowRanges, SEARCH_SCHEMA, SqliteSearchTables, vectorsBytes } from './search-tables.js';
import { docId, folderPrefix, RecentVectorSizes } from './recent-vector-sizes.js';
import type { Statement } from './driver.js';
import { DATA_VALUE, DOC_COLUMNS, docRowOf, migrateDocsFormat, type RawDocRow } from './docs-format.js';
import { DataVersionLook } from './data-version-look.js';
import { storedItem, type DocRow } from './stored-doc.js';
import { rowsByRowids } from './docs-by-rowid.js';
import { SearchFieldsCache } from './search-fields-cache.js';
import { changesFilterIndexes, collectionId, syncFilterIndexes } from './filter-indexes.js';
import { QueryPool } from './query-pool.js';
import { mergedPage } from './ranked-text.js';
import { clearSubstrings, ensureSubstringIndex, indexSubstrings, substringLookup, type SubstringLookup } from './substring-index.js';
import { FencedCheckpoints } from './fenced-checkpoints.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS docs (
  rowid INTEGER PRIMARY KEY,
  env TEXT NOT NULL,
  folder TEXT NOT NULL,
  key TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  owner TEXT,
  data BLOB,
  UNIQUE (env, folder, key)
);
CREATE INDEX IF NOT EXISTS docs_by_created ON docs (env, folder, created_at, key);
-- A full-text table of whole payloads that nothing read; full text is search_text's (docs/decisions/0270).
DROP TABLE IF EXISTS docs_fts;
CREATE TABLE IF NOT EXISTS checkpoints (consumer TEXT PRIMARY KEY, position TEXT NOT NULL);
`;

type Row = DocRow & { rowid: number };

const toDoc = (row: Row): DeliveryDoc => ({
  env: row.env,
  folder: row.folder,
  key: row.key,
  created_at: row.created_at,
  updated_at: row.updated_at,
  owner: row.owner,
  data: row.data === null ? null : (JSON.parse(row.data) as Record<string, unknown>),
});

function statements(db: SqliteDb) {
  return {
    get: db.prepare<[string, string, string], Row>(`SELECT ${DOC_COLUMNS} FROM docs WHERE env = ? AND folder = ? AND key = ?`),
    /**
     * A published document's row id alone: its payload is not converted to text (docs/decisions/0270).
     * Search rows are written for published documents only (ranked-text.ts joins only the page).
     */
    rowid: db.prepare<[string, string, string], { rowid: number }>('SELECT rowid FROM docs WHERE env = ? AND folder = ? AND key = ? AND data IS NOT NULL'),
    upsert: db.prepare<[string, string, string, string, string, string | null, string | null], { rowid: number }>(
      `INSERT INTO docs (env, folder, key, created_at, updated_at, owner, data) VALUES (?, ?, ?, ?, ?, ?, ${DATA_VALUE})
       ON CONFLICT (env, folder, key) DO UPDATE SET created_at = excluded.created_at, updated_at = excluded.updated_at,
         owner = excluded.owner, data = excluded.data
       RETURNING rowid`,
    ),
    /** A document this unit found absent (`Writer.absent`): no conflict to handle, no RETURNING (its row id is the insert's). */
    insert: db.prepare<[string, string, string, string, string, string | null, string | null]>(
      `INSERT INTO docs (env, folder, key, created_at, updated_at, owner, data) VALUES (?, ?, ?, ?, ?, ?, ${DATA_VALUE})`,
    ),
    remove: db.prepare<[string, string, string], { rowid: number }>('DELETE FROM docs WHERE env = ? AND folder = ? AND key = ? RETURNING rowid'),
    removeFolder: db.prepare<[string, string], { rowid: number }>('DELETE FROM docs WHERE env = ? AND folder = ? RETURNING rowid'),
    forward: db.prepare<[string, string, string, string, number], Row>(
      `SELECT ${DOC_COLUMNS} FROM docs WHERE env = ? AND folder = ? AND data IS NOT NULL AND (created_at, key) > (?, ?)
       ORDER BY created_at, key LIMIT ?`,
    ),
    backward: db.prepare<[string, string, string, string, number], Row>(
      `SELECT ${DOC_COLUMNS} FROM docs WHERE env = ? AND folder = ? AND data IS NOT NULL AND (created_at, key) < (?, ?)
       ORDER BY created_at DESC, key DESC LIMIT ?`,
    ),
    checkpoint: db.prepare<[string], { position: string }>('SELECT position FROM checkpoints WHERE consumer = ?'),
    saveCheckpoint: new FencedCheckpoints(db, 'checkpoints'),
  };
}

type Statements = ReturnType<typeof statements>;

const scopeOf = (env: string, folder: string): string => `${env}/${folder}`;

class Writer implements SearchIndexTx {
  /** Whether this unit of work changed a collection's published fields (its filter index, filter-indexes.ts). */
  fieldsChanged = false;
  /** `vectors_size` of each document this unit of work wrote, as it leaves them (docs/decisions/0296). */
  readonly vectorSizes = new Map<string, number>();
  /** Whether it removed a whole collection. */
  removedFolder = false;
  /**
   * The row ids of the documents this unit indexed (and so cleared of search rows) whose search
   * entries it has not indexed since, by `docId`: their entries need neither the row id looked
   * up again nor another clear (docs/decisions/0326).
   */
  private readonly cleared = new Map<string, number>();
  /**
   * The documents this unit looked up and found absent, by `docId`, not written since. Indexing
   * one inserts a row whose row id holds no search rows: every removal of a document clears its
   * rows in the same transaction (`remove`, `removeFolder`), and search rows are only written for a
   * document's current row. So a create's document is not cleared (two queries that found nothing)
   * and is inserted without the upsert's conflict clause and RETURNING (docs/decisions/0329).
   */
  private readonly absent = new Set<string>();

  constructor(
    private readonly s: Statements,
    private readonly search: SqliteSearchTables,
    private readonly db: SqliteDb,
  ) {}

  async meta(id: string): Promise<unknown> {
    return this.search.meta(id);
  }

  async setMeta(id: string, value: unknown): Promise<void> {
    this.search.setMeta(id, value);
    if (changesFilterIndexes(id)) this.fieldsChanged = true;
  }

  async indexSearch(env: string, folder: string, key: string, entries: SearchEntries): Promise<void> {
    const id = docId(env, folder, key);
    const cleared = this.cleared.get(id);
    this.cleared.delete(id);
    const rowid = cleared ?? this.s.rowid.get(env, folder, key)?.rowid;
    if (rowid === undefined) return;
    this.search.index(rowid, scopeOf(env, folder), entries, cleared !== undefined);
    this.vectorSizes.set(id, vectorsBytes(entries));
  }

  async get(env: string, folder: string, key: string): Promise<DeliveryDoc | null> {
    const row = this.s.get.get(env, folder, key);
    if (!row) this.absent.add(docId(env, folder, key));
    return row ? toDoc(row) : null;
  }

  async index(doc: DeliveryDoc): Promise<void> {
    const data = doc.data === null ? null : JSON.stringify(doc.data);
    const id = docId(doc.env, doc.folder, doc.key);
    if (this.absent.delete(id)) {
      // A new row: nothing to clear (see `absent`), and its row id is the insert's.
      const { lastInsertRowid } = this.s.insert.run(doc.env, doc.folder, doc.key, doc.created_at, doc.updated_at, doc.owner, data);
      // An unpublished document gets no search entries (indexSearch finds no published row for it).
      if (data !== null) this.cleared.set(id, Number(lastInsertRowid));
      else this.cleared.delete(id);
      indexSubstrings(this.db, Number(lastInsertRowid), doc.data);
    } else {
      const row = this.s.upsert.get(doc.env, doc.folder, doc.key, doc.created_at, doc.updated_at, doc.owner, data);
      if (row) {
        this.search.clear(row.rowid);
        if (data !== null) this.cleared.set(id, row.rowid);
        else this.cleared.delete(id);
        clearSubstrings(this.db, row.rowid);
        indexSubstrings(this.db, row.rowid, doc.data);
      }
    }
    // Indexed again, a document holds no vectors until its search entries are indexed.
    this.vectorSizes.set(id, 0);
  }

  async remove(env: string, folder: string, key: string): Promise<void> {
    const row = this.s.remove.get(env, folder, key);
    if (row) {
      this.search.clear(row.rowid);
      clearSubstrings(this.db, row.rowid);
    }
    const id = docId(env, folder, key);
    this.cleared.delete(id);
    this.absent.delete(id);
    this.vectorSizes.set(id, 0);
  }

  async removeFolder(env: string, folder: string): Promise<void> {
    for (const row of this.s.removeFolder.all(env, folder)) {
      this.search.clear(row.rowid);
      clearSubstrings(this.db, row.rowid);
    }
    this.removedFolder = true;
    // What this unit wrote into the collection before is gone with it: the store answers for those.
    const prefix = folderPrefix(env, folder);
    for (const byId of [this.vectorSizes, this.cleared, this.absent]) for (const id of byId.keys()) if (id.startsWith(prefix)) byId.delete(id);
  }
}

const MAX_CACHED_STATEMENTS = 256;

const LOWEST: CursorKey = { created_at: '', key: '' };

/** The embedded delivery index: published documents, FTS5 for text, sqlite-vec for vectors. */
export class SqliteSearchIndex implements SearchIndex {
  private readonly writer: SqliteDb;
  private readonly reader: SqliteDb;
  /** Ends the background checkpoints of this file (docs/decisions/0191); awaited before closing. */
  private readonly releaseCheckpoints: () => Promise<void>;
  private readonly w: Statements;
  private readonly r: Statements;
  private readonly mutex = new Mutex();
  private readonly searchWriter: SqliteSearchTables;
  private readonly searchReader: SqliteSearchTables;
  private readonly fieldsCache: SearchFieldsCache;
  /** The collections with a filter index (filter-indexes.ts), as of the last commit that changed them. */
  private filterIndexed: ReadonlySet<string>;
  /** `vectors_size` of the documents the last units of work wrote: no query for them (docs/decisions/0296). */
  private readonly recentVectorSizes = new RecentVectorSizes();
  private readonly substrings: SubstringLookup;

  /** The threads that run lists and searches, each within the time budget (docs/decisions/0339). */
  private readonly pool: QueryPool;

  /**
   * `shortLived`: written for a while and closed (a rebuild's fresh file): no checkpoint thread (docs/decisions/0295).
   * `queryTimeoutMs`: the time budget of a list or search (QUERY_TIMEOUT_MS).
   */
  constructor(
    private readonly file: string,
    shortLived = false,
    queryTimeoutMs?: number,
  ) {
    this.pool = new QueryPool(file, queryTimeoutMs);
    this.writer = openSqlite(file, { vectors: true, derived: true });
    this.writer.exec(SCHEMA);
    this.writer.exec(SEARCH_SCHEMA);
    migrateDocsFormat(this.writer);
    migrateTextRowRanges(this.writer);
    migrateTextFormat(this.writer);
    ensureSubstringIndex(this.writer);
    this.filterIndexed = this.writer.transaction(() => syncFilterIndexes(this.writer)).immediate();
    this.reader = openSqlite(file, { vectors: true });
    this.reader.function('fold', { deterministic: true }, (value: unknown) => (typeof value === 'string' ? fold(value) : value));
    // Lists and searches run on the query pool, whose threads end a statement at its deadline; here (plans) there is none.
    this.reader.function('budget_left', { deterministic: false }, () => 1);
    this.w = statements(this.writer);
    this.r = statements(this.reader);
    this.searchWriter = new SqliteSearchTables(this.writer);
    this.searchReader = new SqliteSearchTables(this.reader);
    this.fieldsCache = new SearchFieldsCache(new DataVersionLook(this.reader));
    this.substrings = substringLookup(this.reader);
    this.releaseCheckpoints = shortLived ? checkpointWithoutThread(this.writer) : checkpointInBackground(this.writer, file);
  }

  /**
   * The collection's FTS rows cut at documents' edges into one part per idle thread of the pool,
   * each part's page found on a thread of its own, the pages merged (docs/decisions/0376): on two
   * idle cores a search takes about half the time it takes on one; with every thread busy it is
   * one part (each part counts its terms again for bm25(): parts would only add work).
   */
  async searchText(env: string, folder: string, query: TextQuery): Promise<Scored[]> {
    const scope = scopeOf(env, folder);
    const parts = this.searchReader.textParts(scope, this.pool.idle);
    const pages = await Promise.all(parts.map(async (part) => (await this.pool.run({ kind: 'text', env, folder, scope, query, part })) as Scored[]));
    return mergedPage(pages, query.limit);
  }

  async searchVectors(env: string, folder: string, query: VectorQuery): Promise<Scored[]> {
    return (await this.pool.run({ kind: 'vectors', env, folder, scope: scopeOf(env, folder), query })) as Scored[];
  }

  async docsByKeys(env: string, folder: string, keys: readonly string[]): Promise<DeliveryDoc[]> {
    return this.rowsByKeys(env, folder, keys).map(toDoc);
  }

  /** docsByKeys with each payload as its stored JSON text, not parsed (docs/decisions/0260); by the search's row ids when given (0256). */
  async docsStoredByKeys(env: string, folder: string, keys: readonly string[], rowids?: readonly number[]): Promise<StoredDoc[]> {
    if (rowids && rowids.length === keys.length) {
      return rowsByRowids((sql) => this.preparedRaw(sql), env, folder, keys, rowids, (missing) => this.rowsByKeys(env, folder, missing)).map(storedItem);
    }
    return this.rowsByKeys(env, folder, keys).map(storedItem);
  }

  private rowsByKeys(env: string, folder: string, keys: readonly string[]): Row[] {
    const rows: Row[] = [];
    for (let at = 0; at < keys.length; at += 500) {
      const chunk = keys.slice(at, at + 500);
      const sql = `SELECT ${DOC_COLUMNS} FROM docs WHERE env = ? AND folder = ? AND data IS NOT NULL AND key IN (${chunk.map(() => '?').join(', ')})`;
      rows.push(...this.rowsOf(sql, [env, folder, ...chunk]));
    }
    return rows;
  }

  async searchFields(env: string, folder: string): Promise<SearchField[]> {
    return this.fieldsCache.get(env, folder, () => activeFields(async (id) => this.searchReader.meta(id), env, folder));
  }

  async vectorsSize(env: string, folder: string, key: string): Promise<number> {
    return this.recentVectorSizes.get(docId(env, folder, key)) ?? this.searchReader.vectorsSizeOf(env, folder, key);
  }

  async get(env: string, folder: string, key: string): Promise<DeliveryDoc | null> {
    const row = this.r.get.get(env, folder, key);
    return row && row.data !== null ? toDoc(row) : null;
  }

  async list(env: string, folder: string, page: PageRequest): Promise<Page> {
    const limit = Math.max(1, page.limit);
    if (page.owners) return this.listOwned(env, folder, page, limit);
    if (page.before) {
      const rows = this.r.backward.all(env, folder, page.before.created_at, page.before.key, limit + 1);
      return { items: rows.slice(0, limit).reverse().map(toDoc), hasMore: rows.length > limit };
    }
    const from = page.after ?? LOWEST;
    const rows = this.r.forward.all(env, folder, from.created_at, from.key, limit + 1);
    return { items: rows.slice(0, limit).map(toDoc), hasMore: rows.length > limit };
  }

  /**
   * Query statements by their SQL: a page of the same shape of query reuses its statement. They
   * read in raw mode, each row made an object here (docRowOf): for a list page of 21 rows that is
   * about 20 µs of CPU less than the driver's objects (docs/decisions/0300).
   */
  private readonly statements = new Map<string, Statement<SqlParam[], RawDocRow>>();

  private rowsOf(sql: string, params: readonly SqlParam[]): Row[] {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= MAX_CACHED_STATEMENTS) this.statements.delete(this.statements.keys().next().value as string);
      statement = this.reader.prepare<SqlParam[], RawDocRow>(sql).raw(true);
      this.statements.set(sql, statement);
    }
    return statement.all(...params).map(docRowOf);
  }

  /** Statements read in raw mode (rows as arrays), by their SQL: the page by row id (docs-by-rowid.ts). */
  private readonly rawStatements = new Map<string, Statement<number[], unknown[]>>();

  private preparedRaw(sql: string): Statement<number[], unknown[]> {
    let statement = this.rawStatements.get(sql);
    if (!statement) {
      if (this.rawStatements.size >= MAX_CACHED_STATEMENTS) this.rawStatements.delete(this.rawStatements.keys().next().value as string);
      statement = this.reader.prepare<number[], unknown[]>(sql).raw(true);
      this.rawStatements.set(sql, statement);
    }
    return statement;
  }

  async query(env: string, folder: string, query: DeliveryQuery): Promise<Page> {
    const { rows, limit, backward } = await this.pageRows(env, folder, query);
    const items = rows.slice(0, limit).map(toDoc);
    return { items: backward ? items.reverse() : items, hasMore: rows.length > limit };
  }

  async queryStored(env: string, folder: string, query: DeliveryQuery): Promise<StoredPage> {
    const { rows, limit, backward } = await this.pageRows(env, folder, query);
    const items = rows.slice(0, limit).map(storedItem);
    return { items: backward ? items.reverse() : items, hasMore: rows.length > limit };
  }

  /** The rows of one page of a query, one more than its limit when more exist: read by the query pool, within the time budget. */
  private async pageRows(env: string, folder: string, query: DeliveryQuery): Promise<{ rows: Row[]; limit: number; backward: boolean }> {
    const { sql, params, limit, backward } = this.pageStatement(env, folder, query);
    const raw = (await this.pool.run({ kind: 'rows', sql, params })) as RawDocRow[];
    return { rows: raw.map(docRowOf), limit, backward };
  }

  private pageStatement(env: string, folder: string, query: DeliveryQuery): { sql: string; params: SqlParam[]; limit: number; backward: boolean } {
    const limit = Math.max(1, query.limit);
    const backward = query.before !== undefined;
    const { sql, params } = pageSql({
      env,
      folder,
      where: query.where,
      joins: query.joins,
      sort: effectiveSort(query),
      owners: query.owners,
      cursor: query.before ?? query.after,
      backward,
      limit,
      filterIndexed: this.filterIndexed.has(collectionId(env, folder)),
      substrings: this.substrings,
    });
    return { sql, params, limit, backward };
  }

  /** SQLite's plan for a page of a query (EXPLAIN QUERY PLAN, its lines joined by "; "): which index it reads. */
  queryPlan(env: string, folder: string, query: DeliveryQuery): string {
    const { sql, params } = this.pageStatement(env, folder, query);
    // A read first: it brings the connection's copy of the schema up to date (EXPLAIN does not).
    this.reader.prepare('SELECT count(*) FROM sqlite_master').get();
    return this.reader
      .prepare<SqlParam[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
      .all(...params)
      .map((row) => row.detail)
      .join('; ');
  }

  /** A list restricted to some owners: the statement depends on how many. */
  private listOwned(env: string, folder: string, page: PageRequest, limit: number): Page {
    const owners = page.owners ?? [];
    if (owners.length === 0) return { items: [], hasMore: false };
    const backward = page.before !== undefined;
    const from = page.before ?? page.after ?? LOWEST;
    const sql = `SELECT ${DOC_COLUMNS} FROM docs WHERE env = ? AND folder = ? AND data IS NOT NULL AND owner IN (${owners.map(() => '?').join(', ')})
      AND (created_at, key) ${backward ? '<' : '>'} (?, ?) ORDER BY created_at ${backward ? 'DESC' : 'ASC'}, key ${backward ? 'DESC' : 'ASC'} LIMIT ?`;
    const rows = this.reader.prepare<unknown[], Row>(sql).all(env, folder, ...owners, from.created_at, from.key, limit + 1);
    const items = rows.slice(0, limit).map(toDoc);
    return { items: backward ? items.reverse() : items, hasMore: rows.length > limit };
  }

  async unitOfWork(consumer: string, position: Position, work: (tx: SearchIndexTx) => Promise<void>): Promise<void> {
    await this.mutex.run(async () => {
      this.writer.exec('BEGIN IMMEDIATE');
      try {
        const tx = new Writer(this.w, this.searchWriter, this.writer);
        await work(tx);
        const filterIndexed = tx.fieldsChanged ? syncFilterIndexes(this.writer) : this.filterIndexed;
        this.w.saveCheckpoint.save(consumer, position);
        this.writer.exec('COMMIT');
        this.recentVectorSizes.committed(tx.vectorSizes, tx.removedFolder);
        this.filterIndexed = filterIndexed;
      } catch (error) {
        if (this.writer.inTransaction) this.writer.exec('ROLLBACK');
        throw error;
      }
    });
  }

  async fence(consumer: string, epoch: number): Promise<void> {
    await this.mutex.run(async () => this.w.saveCheckpoint.fence(consumer, epoch));
  }

  async checkpoint(consumer: string): Promise<Position> {
    return this.w.checkpoint.get(consumer)?.position ?? '';
  }

  async close(): Promise<void> {
    await this.pool.close();
    await this.releaseCheckpoints();
    await this.mutex.run(async () => {
      if (this.reader.open) this.reader.close();
      if (this.writer.open) this.writer.close();
    });
  }
}
