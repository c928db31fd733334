import type { Condition, FieldRef, QueryCursor, QueryScalar, SortKey, WhereNode } from '../../projections/delivery-query.js';
import { fold } from '../../projections/delivery-query-eval.js';

/**
 * Translates the delivery query AST to the OpenSearch query DSL over the flattened payload
 * (flatten.ts: nested `values` per path, nested `items` per array element), with the
 * semantics of projections/delivery-query-eval.ts.
 */

type Q = Record<string, unknown>;

const MATCH_ALL: Q = { match_all: {} };
const MATCH_NONE: Q = { match_none: {} };
const NUMBER_TYPES = ['integer', 'real'];

const and = (...filter: Q[]): Q => ({ bool: { filter } });
const or = (...should: Q[]): Q => (should.length === 0 ? MATCH_NONE : { bool: { should, minimum_should_match: 1 } });
const not = (...mustNot: Q[]): Q => ({ bool: { must_not: mustNot } });

/** A condition on the one entry of `path` (in `values`) or on some element of the array at `path` (in `items`). */
export const entry = (nested: 'values' | 'items', path: string, ...filter: Q[]): Q => ({
  nested: { path: nested, query: and({ term: { [`${nested}.path`]: path } }, ...filter) },
});

const escapeWildcard = (s: string): string => s.replace(/[\\*?]/g, (c) => `\\${c}`);

/** What an entry field must hold for a value to equal `x` (typed, like the evaluator). */
function sameValue(prefix: string, x: unknown): Q[] | null {
  if (typeof x === 'string') return [{ term: { [`${prefix}.s`]: x } }];
  if (typeof x === 'boolean') return [{ term: { [`${prefix}.b`]: x } }];
  if (typeof x === 'number') return [{ terms: { [`${prefix}.type`]: NUMBER_TYPES } }, { term: { [`${prefix}.n`]: x } }];
  return null;
}

function ordered(prefix: string, bounds: Record<string, unknown>, sample: unknown): Q[] | null {
  if (typeof sample === 'number') return [{ terms: { [`${prefix}.type`]: NUMBER_TYPES } }, { range: { [`${prefix}.n`]: bounds } }];
  if (typeof sample === 'string') return [{ range: { [`${prefix}.s`]: bounds } }];
  return null;
}

function dataCondition(c: Condition, path: string): Q {
  const x = c.value;
  const on = (filters: Q[] | null): Q => (filters ? entry('values', path, ...filters) : MATCH_NONE);
  const text = (field: 's' | 'f', build: (value: string) => Q[]): Q => (typeof x === 'string' ? entry('values', path, ...build(field === 'f' ? fold(x) : x)) : MATCH_NONE);
  const list = Array.isArray(x) ? (x as readonly QueryScalar[]) : [];
  switch (c.op) {
    case 'eq':
      return on(sameValue('values', x));
    case 'ne':
      return not(on(sameValue('values', x)));
    case 'ieq':
      return text('f', (v) => [{ term: { 'values.f': v } }]);
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return on(ordered('values', { [c.op]: x }, x));
    case 'in':
      return or(...list.map((item) => on(sameValue('values', item))));
    case 'nin':
      return not(...list.map((item) => on(sameValue('values', item))));
    case 'iin': {
      const strings = list.filter((item): item is string => typeof item === 'string').map(fold);
      return strings.length === 0 ? MATCH_NONE : entry('values', path, { terms: { 'values.f': strings } });
    }
    case 'between': {
      const [low, high] = list;
      return typeof low === typeof high ? on(ordered('values', { gte: low, lte: high }, low)) : MATCH_NONE;
    }
    // The wildcard fields (mapping.ts): trigrams of the whole string, each candidate checked (docs/decisions/0338).
    case 'contains':
      return text('s', (v) => [{ wildcard: { 'values.s.w': { value: `*${escapeWildcard(v)}*` } } }]);
    case 'icontains':
      return text('f', (v) => [{ wildcard: { 'values.f.w': { value: `*${escapeWildcard(v)}*` } } }]);
    case 'startswith':
      return text('s', (v) => [{ wildcard: { 'values.s.w': { value: `${escapeWildcard(v)}*` } } }]);
    case 'istartswith':
      return text('f', (v) => [{ wildcard: { 'values.f.w': { value: `${escapeWildcard(v)}*` } } }]);
    case 'endswith':
      return text('s', (v) => [{ wildcard: { 'values.s.w': { value: `*${escapeWildcard(v)}` } } }]);
    case 'iendswith':
      return text('f', (v) => [{ wildcard: { 'values.f.w': { value: `*${escapeWildcard(v)}` } } }]);
    case 'includes': {
      const same = sameValue('items', x);
      return same ? entry('items', path, ...same) : MATCH_NONE;
    }
    case 'exists':
      return x === true ? entry('values', path) : not(entry('values', path));
    case 'isnull':
      return x === true ? not(entry('values', path, not({ term: { 'values.type': 'null' } }))) : entry('values', path, not({ term: { 'values.type': 'null' } }));
  }
}

/** `_sys` members are keyword fields of the document; they always hold a string. */
function sysCondition(c: Condition, field: string): Q {
  const x = c.value;
  const list = Array.isArray(x) ? (x as readonly QueryScalar[]) : [];
  const strings = list.filter((item): item is string => typeof item === 'string');
  const text = (build: (v: string) => Q): Q => (typeof x === 'string' ? build(x) : MATCH_NONE);
  const wildcard = (pattern: (v: string) => string, insensitive: boolean) =>
    text((v) => ({ wildcard: { [field]: { value: pattern(escapeWildcard(v)), case_insensitive: insensitive } } }));
  switch (c.op) {
    case 'eq':
      return text((v) => ({ term: { [field]: v } }));
    case 'ne':
      return typeof x === 'string' ? not({ term: { [field]: x } }) : MATCH_ALL;
    case 'ieq':
      return text((v) => ({ term: { [field]: { value: v, case_insensitive: true } } }));
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return text((v) => ({ range: { [field]: { [c.op]: v } } }));
    case 'in':
      return strings.length === 0 ? MATCH_NONE : { terms: { [field]: strings } };
    case 'nin':
      return strings.length === 0 ? MATCH_ALL : not({ terms: { [field]: strings } });
    case 'iin':
      return or(...strings.map((v) => ({ term: { [field]: { value: v, case_insensitive: true } } })));
    case 'between': {
      const [low, high] = list;
      return typeof low === 'string' && typeof high === 'string' ? { range: { [field]: { gte: low, lte: high } } } : MATCH_NONE;
    }
    case 'contains':
      return wildcard((v) => `*${v}*`, false);
    case 'icontains':
      return wildcard((v) => `*${v}*`, true);
    case 'startswith':
      return wildcard((v) => `${v}*`, false);
    case 'istartswith':
      return wildcard((v) => `${v}*`, true);
    case 'endswith':
      return wildcard((v) => `*${v}`, false);
    case 'iendswith':
      return wildcard((v) => `*${v}`, true);
    case 'includes':
      return MATCH_NONE;
    case 'exists':
      return x === true ? MATCH_ALL : MATCH_NONE;
    case 'isnull':
      return x === true ? MATCH_NONE : MATCH_ALL;
  }
}

export function whereQuery(node: WhereNode): Q {
  switch (node.kind) {
    case 'condition':
      return node.field.scope === 'sys' ? sysCondition(node, node.field.name) : dataCondition(node, node.field.path.join('.'));
    case 'all_of':
      return node.items.length === 0 ? MATCH_ALL : and(...node.items.map(whereQuery));
    case 'any_of':
      return or(...node.items.map(whereQuery));
    case 'none_of':
      return node.items.length === 0 ? MATCH_ALL : not(...node.items.map(whereQuery));
  }
}

type Ordering = { readonly field: FieldRef | 'key'; readonly descending: boolean };

/** The sort keys plus `key` (in the last key's direction); every direction flipped to read backward. */
function orderings(sort: readonly SortKey[], backward: boolean): Ordering[] {
  const keys: Ordering[] = [...sort.map((s) => ({ field: s.field, descending: s.descending })), { field: 'key', descending: sort[sort.length - 1]?.descending ?? false }];
  return backward ? keys.map((k) => ({ ...k, descending: !k.descending })) : keys;
}

/** Sort clauses: a data field sorts by its rank, then its number, then its string (nulls first ascending). */
export function sortClauses(sort: readonly SortKey[], backward: boolean): Q[] {
  return orderings(sort, backward).flatMap((k): Q[] => {
    const order = k.descending ? 'desc' : 'asc';
    if (k.field === 'key') return [{ key: order }];
    if (k.field.scope === 'sys') return [{ [k.field.name]: order }];
    const nested = { path: 'values', filter: { term: { 'values.path': k.field.path.join('.') } } };
    return [
      { 'values.r': { order, nested, missing: 0 } },
      { 'values.n': { order, nested, missing: '_last' } },
      { 'values.s': { order, nested, missing: '_last' } },
    ];
  });
}

/** A sort key's value equals the cursor's (in sort terms: null-like, the same number, the same string). */
function sortEquals(field: FieldRef | 'key', value: QueryScalar | null): Q {
  if (field === 'key') return { term: { key: value } };
  if (field.scope === 'sys') return { term: { [field.name]: value } };
  const path = field.path.join('.');
  if (value === null) return not(entry('values', path, { range: { 'values.r': { gte: 1 } } }));
  if (typeof value === 'string') return entry('values', path, { term: { 'values.r': 2 } }, { term: { 'values.s': value } });
  return entry('values', path, { term: { 'values.r': 1 } }, { term: { 'values.n': Number(value) } });
}

/** A sort key's value lies strictly beyond the cursor's in the key's direction. */
function sortBeyond(k: Ordering, value: QueryScalar | null): Q {
  const { field, descending } = k;
  if (field === 'key' || field.scope === 'sys') {
    const name = field === 'key' ? 'key' : field.name;
    return { range: { [name]: { [descending ? 'lt' : 'gt']: value } } };
  }
  const path = field.path.join('.');
  const nullLike = not(entry('values', path, { range: { 'values.r': { gte: 1 } } }));
  if (value === null) return descending ? MATCH_NONE : entry('values', path, { range: { 'values.r': { gte: 1 } } });
  if (typeof value === 'string') {
    return descending
      ? or(entry('values', path, { term: { 'values.r': 2 } }, { range: { 'values.s': { lt: value } } }), entry('values', path, { term: { 'values.r': 1 } }), nullLike)
      : entry('values', path, { term: { 'values.r': 2 } }, { range: { 'values.s': { gt: value } } });
  }
  const n = Number(value);
  return descending
    ? or(entry('values', path, { term: { 'values.r': 1 } }, { range: { 'values.n': { lt: n } } }), nullLike)
    : or(entry('values', path, { term: { 'values.r': 1 } }, { range: { 'values.n': { gt: n } } }), entry('values', path, { term: { 'values.r': 2 } }));
}

/** Documents strictly after the cursor in the (possibly flipped) order: the keyset as a query. */
export function keysetQuery(sort: readonly SortKey[], cursor: QueryCursor, backward: boolean): Q {
  const keys = orderings(sort, backward);
  const values = [...cursor.values, cursor.key];
  return or(...keys.map((k, i) => and(...keys.slice(0, i).map((prior, j) => sortEquals(prior.field, values[j] ?? null)), sortBeyond(k, values[i] ?? null))));
}

/** Documents whose reference (or one of whose relation values) at `path` is one of `refs` (`folder::key`). */
export function referencesQuery(path: string, refs: readonly string[]): Q {
  if (refs.length === 0) return MATCH_NONE;
  return or(entry('values', path, { term: { 'values.type': 'text' } }, { terms: { 'values.s': refs } }), entry('items', path, { term: { 'items.type': 'text' } }, { terms: { 'items.s': refs } }));
}
