/**
 * The delivery query AST: what a delivery list, `_search` or an agent tool asks the
 * SearchIndex for. Plain data, built by the HTTP parsers (read-api/delivery/query/) and
 * translated per engine (SQL on SQLite, the query DSL on OpenSearch). Semantics are those
 * of the reference evaluator in projections/delivery-query-eval.ts.
 */

/** The filter operators of a `where` leaf `{"<field>__<operator>": value}`. */
export const OPERATORS = [
  'eq',
  'ieq',
  'ne',
  'gt',
  'gte',
  'lt',
  'lte',
  'in',
  'iin',
  'nin',
  'between',
  'contains',
  'icontains',
  'startswith',
  'istartswith',
  'endswith',
  'iendswith',
  'includes',
  'exists',
  'isnull',
] as const;

export type Operator = (typeof OPERATORS)[number];

/** The groups of a `where` tree: every / some / none of their items hold. */
export const GROUPS = ['all_of', 'any_of', 'none_of'] as const;

export type GroupKind = (typeof GROUPS)[number];

/** System fields a filter or sort may name as `_sys.<name>`. */
export const SYS_FIELDS = ['key', 'created_at', 'updated_at', 'folder'] as const;

export type SysField = (typeof SYS_FIELDS)[number];

/** A field a condition or sort key reads: a `_sys` member, or a path into `data` (locale segment included). */
export type FieldRef = { readonly scope: 'sys'; readonly name: SysField } | { readonly scope: 'data'; readonly path: readonly string[] };

export type QueryScalar = string | number | boolean;

/**
 * A condition's value, by operator: a scalar (eq ieq ne gt gte lt lte contains icontains
 * startswith istartswith endswith iendswith includes), a list (in iin nin), a pair
 * (between, inclusive), a boolean (exists, isnull).
 */
export type ConditionValue = QueryScalar | readonly QueryScalar[];

export type Condition = { readonly kind: 'condition'; readonly field: FieldRef; readonly op: Operator; readonly value: ConditionValue };

export type Group = { readonly kind: GroupKind; readonly items: readonly WhereNode[] };

export type WhereNode = Condition | Group;

export type SortKey = { readonly field: FieldRef; readonly descending: boolean };

/** A page boundary: the sort values of the item next to it (one per sort key) and its key (the last tiebreak). */
export type QueryCursor = { readonly values: readonly (QueryScalar | null)[]; readonly key: string };

/** Most collections one query joins. */
export const MAX_JOINS = 3;

/**
 * A join: the document's reference or relation field at `field` (a data path) names a
 * published document of `folder` that matches `where` (any document of it when absent).
 */
export type JoinFilter = { readonly field: readonly string[]; readonly folder: string; readonly where?: WhereNode };

export type DeliveryQuery = {
  readonly where?: WhereNode;
  /** Joined collections (at most MAX_JOINS); every one must hold. */
  readonly joins?: readonly JoinFilter[];
  /** Sort keys; `_sys.key` ascending is always the last tiebreak. Empty: by `_sys.created_at`. */
  readonly sort?: readonly SortKey[];
  readonly limit: number;
  /** Items strictly after this boundary (forward) ... */
  readonly after?: QueryCursor;
  /** ... or strictly before it (backward); at most one of the two. */
  readonly before?: QueryCursor;
  /** Only documents whose owner (parent resource) is one of these. */
  readonly owners?: readonly string[];
};

/** The sort a query runs with: its keys, or `_sys.created_at` ascending when it names none. */
export const effectiveSort = (query: Pick<DeliveryQuery, 'sort'>): readonly SortKey[] =>
  query.sort && query.sort.length > 0 ? query.sort : [{ field: { scope: 'sys', name: 'created_at' }, descending: false }];

/** A field reference as clients write it: `_sys.created_at`, `title.en`. */
export const fieldName = (field: FieldRef): string => (field.scope === 'sys' ? `_sys.${field.name}` : field.path.join('.'));
