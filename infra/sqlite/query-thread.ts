import { fold } from '../../projections/delivery-query-eval.js';
import type { Statement } from './driver.js';
import type { SqlParam } from './delivery-query-sql.js';
import type { RawDocRow } from './docs-format.js';
import { openSqlite, type SqliteDb } from './open.js';
import { BUDGET_EXCEEDED } from './query-budget.js';
import type { QueryAnswer, QueryTask } from './query-task.js';
import { SqliteSearchTables } from './search-tables.js';

/** A query pool thread (docs/decisions/0339): its reading connection to each delivery index file, opened on first use. */
type Reader = { readonly db: SqliteDb; readonly search: SqliteSearchTables; readonly statements: Map<string, Statement<SqlParam[], RawDocRow>> };

const readers = new Map<string, Reader>();
const MAX_CACHED_STATEMENTS = 256;

/** The running task's deadline. */
let deadline = Infinity;

/** budget_left(): 1 until the deadline (the clock read at each row, tens of nanoseconds); past it, an error that ends the statement. */
function budgetLeft(): number {
  if (Date.now() > deadline) throw new Error(BUDGET_EXCEEDED);
  return 1;
}

function readerOf(file: string): Reader {
  let reader = readers.get(file);
  if (!reader) {
    const db = openSqlite(file, { vectors: true });
    db.function('fold', { deterministic: true }, (value: unknown) => (typeof value === 'string' ? fold(value) : value));
    db.function('budget_left', { deterministic: false }, budgetLeft);
    reader = { db, search: new SqliteSearchTables(db), statements: new Map() };
    readers.set(file, reader);
  }
  return reader;
}

/**
 * Page statements by their SQL, read in raw mode: a page of the same shape of query reuses its
 * statement, and rows cross back to the main thread as arrays (docs/decisions/0300).
 */
function rows(reader: Reader, sql: string, params: readonly SqlParam[]): RawDocRow[] {
  let statement = reader.statements.get(sql);
  if (!statement) {
    if (reader.statements.size >= MAX_CACHED_STATEMENTS) reader.statements.delete(reader.statements.keys().next().value as string);
    statement = reader.db.prepare<SqlParam[], RawDocRow>(sql).raw(true);
    reader.statements.set(sql, statement);
  }
  return statement.all(...params);
}

export default function answer(task: QueryTask): QueryAnswer {
  const reader = readerOf(task.file);
  deadline = task.deadline;
  switch (task.kind) {
    case 'rows':
      return rows(reader, task.sql, task.params);
    case 'text':
      return reader.search.searchText(task.env, task.folder, task.scope, task.query, task.part);
    case 'vectors':
      return reader.search.searchVectors(task.env, task.folder, task.scope, task.query);
  }
}
