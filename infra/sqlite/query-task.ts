import type { Scored, TextQuery, VectorQuery } from '../../projections/ports.js';
import type { SqlParam } from './delivery-query-sql.js';
import type { RawDocRow } from './docs-format.js';

/**
 * The one message the query pool's threads take (docs/decisions/0339): a page's statement (its
 * rows answered raw, as arrays), or a collection's text or vector search. `file` is the delivery
 * index each thread opens for reading on first use.
 */
export type QueryTask = {
  readonly file: string;
  /** When the task's time budget ends (epoch ms): its statement stops there (BUDGET_CHECK). */
  readonly deadline: number;
} & (
  | { readonly kind: 'rows'; readonly sql: string; readonly params: readonly SqlParam[] }
  | { readonly kind: 'text'; readonly env: string; readonly folder: string; readonly scope: string; readonly query: TextQuery }
  | { readonly kind: 'vectors'; readonly env: string; readonly folder: string; readonly scope: string; readonly query: VectorQuery }
);

export type QueryAnswer = RawDocRow[] | Scored[];

/**
 * The condition every list and search statement holds first: `budget_left()`, which the query
 * threads answer with 1 until the task's deadline and then fail, ending the statement (a SQLite
 * statement cannot otherwise be interrupted through the driver). Other connections answer 1.
 */
export const BUDGET_CHECK = 'budget_left()';

export const BUDGET_EXCEEDED = 'query time budget exceeded';

