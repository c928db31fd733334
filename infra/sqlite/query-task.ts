import type { Scored, TextQuery, VectorQuery } from '../../projections/ports.js';
import type { SqlParam } from './delivery-query-sql.js';
import type { RawDocRow } from './docs-format.js';
import type { TextPart } from './search-tables.js';

/**
 * The one message the query pool's threads take (docs/decisions/0339): a page's statement (its
 * rows answered raw, as arrays), or a collection's text search (over a part of its rows, 0376) or vector search. `file` is the delivery
 * index each thread opens for reading on first use.
 */
export type QueryTask = {
  readonly file: string;
  /** When the task's time budget ends (epoch ms): its statement stops there (query-budget.ts). */
  readonly deadline: number;
} & (
  | { readonly kind: 'rows'; readonly sql: string; readonly params: readonly SqlParam[] }
  | { readonly kind: 'text'; readonly env: string; readonly folder: string; readonly scope: string; readonly query: TextQuery; readonly part?: TextPart }
  | { readonly kind: 'vectors'; readonly env: string; readonly folder: string; readonly scope: string; readonly query: VectorQuery }
);

export type QueryAnswer = RawDocRow[] | Scored[];
