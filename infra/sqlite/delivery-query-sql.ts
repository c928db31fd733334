import type { Condition, FieldRef, JoinFilter, QueryCursor, QueryScalar, SortKey, WhereNode } from '../../projections/delivery-query.js';
import { fold } from '../../projections/delivery-query-eval.js';
import { DOC_COLUMNS } from './docs-format.js';
import { BUDGET_CHECK } from './query-budget.js';
import { substringCandidates, substringMatch, type SubstringLookup } from './substring-index.js';

/**
 * Translates the delivery query AST to SQL over the `docs` table (its JSONB `data` column, 0210),
 * with the semantics of projections/delivery-query-eval.ts: typed comparisons through
 * `json_type`, `fold()` (registered per connection) for the case-insensitive operators.
 */

export type SqlParam = string | number | null;

const SEGMENT = /^[A-Za-z0-9_-]+$/;
const SYS_COLUMNS = { key: 'key', created_at: 'created_at', updated_at: 'updated_at', folder: 'folder' } as const;

export function jsonPath(path: readonly string[]): string {
  for (const segment of path) if (!SEGMENT.test(segment)) throw new Error(`invalid field path segment: ${segment}`);
  return `'$.${path.map((s) => `"${s}"`).join('.')}'`;
}

/** A SQL string literal. */
export const sqlText = (value: string): string => `'${value.replace(/'/g, "''")}'`;

/** A field as a value expression and a JSON type expression (`text` for the `_sys` columns). */
type Operand = { readonly val: string; readonly typ: string };

/** A field of the `docs` row named `table` (the queried one, or a joined one in a subquery). */
const operand = (field: FieldRef, table: string): Operand =>
  field.scope === 'sys'
    ? { val: `${table}.${SYS_COLUMNS[field.name]}`, typ: `'text'` }
    : { val: `json_extract(${table}.data, ${jsonPath(field.path)})`, typ: `json_type(${table}.data, ${jsonPath(field.path)})` };

const bind = (value: QueryScalar | null): SqlParam => (typeof value === 'boolean' ? Number(value) : value);

/** The substring operators, answered from the substring index where it can (substring-index.ts). */
const SUBSTRING_OPS: ReadonlySet<Condition['op']> = new Set(['contains', 'icontains', 'startswith', 'istartswith', 'endswith', 'iendswith']);

class Builder {
  constructor(
    readonly table = 'docs',
    readonly params: SqlParam[] = [],
    /** The substring index's path numbers; absent: every substring condition reads each document's text. */
    readonly substrings?: SubstringLookup,
  ) {}

  p(value: QueryScalar | null): string {
    this.params.push(bind(value));
    return '?';
  }

  /** Never NULL: 0 or 1. */
  same(o: Operand, x: unknown): string {
    if (typeof x === 'boolean') return `(${o.typ} IS '${x ? 'true' : 'false'}')`;
    if (typeof x === 'number') return `((${o.typ} IS 'integer' OR ${o.typ} IS 'real') AND ${o.val} = ${this.p(x)})`;
    if (typeof x === 'string') return `(${o.typ} IS 'text' AND ${o.val} = ${this.p(x)})`;
    return '0';
  }

  /** Both sides numbers or both strings, then the SQL comparison. */
  ordered(o: Operand, sign: string, x: unknown): string {
    if (typeof x === 'number') return `((${o.typ} IS 'integer' OR ${o.typ} IS 'real') AND ${o.val} ${sign} ${this.p(x)})`;
    if (typeof x === 'string') return `(${o.typ} IS 'text' AND ${o.val} ${sign} ${this.p(x)})`;
    return '0';
  }

  text(o: Operand, x: unknown, test: (val: string, param: () => string) => string, folded = false): string {
    if (typeof x !== 'string') return '0';
    const val = folded ? `fold(${o.val})` : o.val;
    const value = folded ? fold(x) : x;
    return `(${o.typ} IS 'text' AND ${test(val, () => this.p(value))})`;
  }

  condition(c: Condition): string {
    if (SUBSTRING_OPS.has(c.op) && c.field.scope !== 'sys' && typeof c.value === 'string' && this.substrings) {
      const path = this.substrings(c.field.path);
      const match = substringMatch(c.value);
      // The index's candidates first, then the exact check of each (the index may answer more).
      if (path !== null && match !== null) return `(${substringCandidates(this.table, this.p(match), this.p(path))} AND ${this.exact(c)})`;
    }
    return this.exact(c);
  }

  private exact(c: Condition): string {
    const o = operand(c.field, this.table);
    const x = c.value;
    const list = Array.isArray(x) ? (x as readonly QueryScalar[]) : [];
    switch (c.op) {
      case 'eq':
        return this.same(o, x);
      case 'ne':
        return `NOT ${this.same(o, x)}`;
      case 'ieq':
        return this.text(o, x, (v, p) => `${v} = ${p()}`, true);
      case 'gt':
        return this.ordered(o, '>', x);
      case 'gte':
        return this.ordered(o, '>=', x);
      case 'lt':
        return this.ordered(o, '<', x);
      case 'lte':
        return this.ordered(o, '<=', x);
      case 'in':
        return list.length === 0 ? '0' : `(${list.map((item) => this.same(o, item)).join(' OR ')})`;
      case 'nin':
        return list.length === 0 ? '1' : `NOT (${list.map((item) => this.same(o, item)).join(' OR ')})`;
      case 'iin':
        return list.length === 0 ? '0' : `(${list.map((item) => this.text(o, item, (v, p) => `${v} = ${p()}`, true)).join(' OR ')})`;
      case 'between': {
        const [low, high] = list;
        return `(${this.ordered(o, '>=', low)} AND ${this.ordered(o, '<=', high)})`;
      }
      case 'contains':
        return this.text(o, x, (v, p) => `instr(${v}, ${p()}) > 0`);
      case 'icontains':
        return this.text(o, x, (v, p) => `instr(${v}, ${p()}) > 0`, true);
      case 'startswith':
        return this.text(o, x, (v, p) => `substr(${v}, 1, length(${p()})) = ${p()}`);
      case 'istartswith':
        return this.text(o, x, (v, p) => `substr(${v}, 1, length(${p()})) = ${p()}`, true);
      case 'endswith':
        return this.text(o, x, (v, p) => `(length(${v}) >= length(${p()}) AND substr(${v}, length(${v}) - length(${p()}) + 1) = ${p()})`);
      case 'iendswith':
        return this.text(o, x, (v, p) => `(length(${v}) >= length(${p()}) AND substr(${v}, length(${v}) - length(${p()}) + 1) = ${p()})`, true);
      case 'includes': {
        if (c.field.scope === 'sys') return '0';
        const item = this.same({ val: 'e.value', typ: 'e.type' }, x);
        return `(${o.typ} IS 'array' AND EXISTS (SELECT 1 FROM json_each(${this.table}.data, ${jsonPath(c.field.path)}) AS e WHERE ${item}))`;
      }
      case 'exists':
        return x === true ? `(${o.typ} IS NOT NULL)` : `(${o.typ} IS NULL)`;
      case 'isnull':
        return x === true ? `(${o.typ} IS NULL OR ${o.typ} IS 'null')` : `(${o.typ} IS NOT NULL AND ${o.typ} IS NOT 'null')`;
    }
  }

  /** `folder::key` of the published documents of the joined collection that match its tree. */
  private joined(join: JoinFilter, depth: number, env: string): string {
    const t = `j${depth}`;
    const inner = new Builder(t, this.params, this.substrings);
    const clauses = [`${t}.env = ${this.p(env)}`, `${t}.folder = ${this.p(join.folder)}`, `${t}.data IS NOT NULL`];
    if (join.where) clauses.push(inner.where(join.where));
    return `SELECT ${t}.folder || '::' || ${t}.key FROM docs AS ${t} WHERE ${clauses.join(' AND ')}`;
  }

  /** The reference (text) or relation (array of text) at the join's field names a matching document. */
  join(join: JoinFilter, env: string, depth = 0): string {
    const path = jsonPath(join.field);
    const one = `json_extract(${this.table}.data, ${path}) IN (${this.joined(join, depth, env)})`;
    const many = `EXISTS (SELECT 1 FROM json_each(${this.table}.data, ${path}) AS e WHERE e.type = 'text' AND e.value IN (${this.joined(join, depth + 1, env)}))`;
    return `(CASE json_type(${this.table}.data, ${path}) WHEN 'text' THEN ${one} WHEN 'array' THEN ${many} ELSE 0 END)`;
  }

  where(node: WhereNode): string {
    switch (node.kind) {
      case 'condition':
        return this.condition(node);
      case 'all_of':
        return node.items.length === 0 ? '1' : `(${node.items.map((n) => this.where(n)).join(' AND ')})`;
      case 'any_of':
        return node.items.length === 0 ? '0' : `(${node.items.map((n) => this.where(n)).join(' OR ')})`;
      case 'none_of':
        return node.items.length === 0 ? '1' : `NOT (${node.items.map((n) => this.where(n)).join(' OR ')})`;
    }
  }
}

/** A sort expression: objects and arrays sort as null, like the reference evaluator. */
export function sortExpr(field: FieldRef): string {
  if (field.scope === 'sys') return SYS_COLUMNS[field.name];
  const path = jsonPath(field.path);
  return `(CASE WHEN json_type(data, ${path}) IN ('object', 'array') THEN NULL ELSE json_extract(data, ${path}) END)`;
}

export type Ordering = { readonly expr: string; readonly descending: boolean };

/** The sort keys plus `key` (in the last key's direction); every direction flipped to read backward. */
export function orderings(sort: readonly SortKey[], backward: boolean): Ordering[] {
  const keys: Ordering[] = sort.map((s) => ({ expr: sortExpr(s.field), descending: s.descending }));
  keys.push({ expr: 'key', descending: sort[sort.length - 1]?.descending ?? false });
  return backward ? keys.map((k) => ({ ...k, descending: !k.descending })) : keys;
}

/** Rows strictly after the cursor in this ordering (NULL sorts first ascending, last descending). */
function keyset(b: Builder, keys: readonly Ordering[], cursor: QueryCursor, plainColumns: boolean): string {
  const values = [...cursor.values, cursor.key];
  if (plainColumns && keys.every((k) => k.descending === keys[0]?.descending)) {
    return `(${keys.map((k) => k.expr).join(', ')}) ${keys[0]?.descending ? '<' : '>'} (${values.map((v) => b.p(v ?? null)).join(', ')})`;
  }
  const terms = keys.map((k, i) => {
    const equal = keys.slice(0, i).map((prior, j) => `${prior.expr} IS ${b.p(values[j] ?? null)}`);
    const value = values[i] ?? null;
    let beyond: string;
    if (value === null) beyond = k.descending ? '0' : `${k.expr} IS NOT NULL`;
    else beyond = k.descending ? `(${k.expr} < ${b.p(value)} OR ${k.expr} IS NULL)` : `${k.expr} > ${b.p(value)}`;
    return `(${[...equal, beyond].join(' AND ')})`;
  });
  return `(${terms.join(' OR ')})`;
}

export type PageSql = { readonly sql: string; readonly params: SqlParam[] };

/**
 * A page's LIMIT written into its SQL rather than bound: SQLite (3.53, better-sqlite3's) codes a
 * bound LIMIT with the value it had (computeLimitRegisters), so it marks the statement to be
 * prepared again whenever that parameter is bound, and better-sqlite3 binds every parameter on
 * every run: each page paid a whole prepare, 10 to 20 µs of CPU (docs/decisions/0319). A literal
 * keeps the cached statement as it is; a page size is one of at most a hundred values, each a
 * statement of its own in the statement cache.
 */
export function limitSql(rows: number): string {
  if (!Number.isSafeInteger(rows) || rows < 1) throw new Error(`invalid page size: ${rows}`);
  return String(rows);
}

/** The statement of one page: filter, owners, cursor, order, limit + 1 (to tell whether more exist). */
export function pageSql(args: {
  env: string;
  folder: string;
  where?: WhereNode;
  joins?: readonly JoinFilter[];
  sort: readonly SortKey[];
  owners?: readonly string[];
  cursor?: QueryCursor;
  backward: boolean;
  limit: number;
  /** The collection has a filter index (filter-indexes.ts). */
  filterIndexed?: boolean;
  /** The substring index's path numbers (substring-index.ts). */
  substrings?: SubstringLookup;
}): PageSql {
  const b = new Builder('docs', [], args.substrings);
  // A filtered page in creation order reads the collection's filter index: the collection named
  // as that partial index's WHERE names it, which no other index can use. Any other page keeps
  // the (env, folder, ...) indexes: its sort or the absence of a filter gains nothing from it.
  const creationOrder = args.sort.length === 1 && args.sort[0]?.field.scope === 'sys' && args.sort[0].field.name === 'created_at';
  const viaFilterIndex = args.filterIndexed === true && args.where !== undefined && creationOrder;
  const collection = viaFilterIndex ? [`+env = ${sqlText(args.env)}`, `+folder = ${sqlText(args.folder)}`] : [`env = ${b.p(args.env)}`, `folder = ${b.p(args.folder)}`];
  const clauses = [BUDGET_CHECK, ...collection, 'data IS NOT NULL'];
  // Without a cursor, a range on the index's first column that every row holds (`created_at` is
  // non-null text): SQLite then reads the index in order rather than scanning and sorting the table.
  if (viaFilterIndex && !args.cursor) clauses.push(`created_at >= ''`);
  if (args.owners) clauses.push(args.owners.length === 0 ? '0' : `owner IN (${args.owners.map((o) => b.p(o)).join(', ')})`);
  if (args.where) clauses.push(b.where(args.where));
  for (const join of args.joins ?? []) clauses.push(b.join(join, args.env));
  const keys = orderings(args.sort, args.backward);
  if (args.cursor) clauses.push(keyset(b, keys, args.cursor, args.sort.every((s) => s.field.scope === 'sys')));
  const order = keys.map((k) => `${k.expr} ${k.descending ? 'DESC' : 'ASC'}`).join(', ');
  const sql = `SELECT ${DOC_COLUMNS} FROM docs WHERE ${clauses.join(' AND ')} ORDER BY ${order} LIMIT ${limitSql(args.limit + 1)}`;
  return { sql, params: b.params };
}
