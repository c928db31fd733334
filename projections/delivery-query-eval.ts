import type { Condition, FieldRef, JoinFilter, QueryCursor, QueryScalar, SortKey, WhereNode } from './delivery-query.js';
import { effectiveSort } from './delivery-query.js';
import type { DeliveryDoc } from './ports.js';

/**
 * The reference semantics of the delivery query AST, evaluated over plain documents. The
 * engines translate the same AST (SQL, OpenSearch DSL); the property test holds them to this.
 *
 * - A value is read along the path through objects only; a missing step is "missing".
 * - Comparisons are typed: a string condition never matches a number, an object or an array.
 * - `ne` and `nin` match missing values; `exists` is "present, even if null"; `isnull` is
 *   "null or missing". Case-insensitive operators compare `toLowerCase()` forms.
 */

export const fold = (s: string): string => s.toLowerCase();

export function readField(doc: DeliveryDoc, field: FieldRef): unknown {
  if (field.scope === 'sys') return doc[field.name];
  let value: unknown = doc.data;
  for (const step of field.path) {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, step)) return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}

const same = (v: unknown, x: unknown): boolean => (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') && typeof v === typeof x && v === x;

const comparable = (v: unknown, x: unknown): v is string | number =>
  (typeof v === 'number' && typeof x === 'number') || (typeof v === 'string' && typeof x === 'string');

const text = (v: unknown, x: unknown, test: (v: string, x: string) => boolean): boolean => typeof v === 'string' && typeof x === 'string' && test(v, x);

const ci = (test: (v: string, x: string) => boolean) => (v: string, x: string) => test(fold(v), fold(x));

const list = (x: unknown): readonly unknown[] => (Array.isArray(x) ? x : []);

export function holds(condition: Condition, v: unknown): boolean {
  const x = condition.value;
  switch (condition.op) {
    case 'eq':
      return same(v, x);
    case 'ne':
      return !same(v, x);
    case 'ieq':
      return text(v, x, ci((a, b) => a === b));
    case 'gt':
      return comparable(v, x) && v > x;
    case 'gte':
      return comparable(v, x) && v >= x;
    case 'lt':
      return comparable(v, x) && v < x;
    case 'lte':
      return comparable(v, x) && v <= x;
    case 'in':
      return list(x).some((item) => same(v, item));
    case 'nin':
      return !list(x).some((item) => same(v, item));
    case 'iin':
      return list(x).some((item) => text(v, item, ci((a, b) => a === b)));
    case 'between': {
      const [low, high] = list(x);
      return comparable(v, low) && comparable(v, high) && v >= (low as typeof v) && v <= (high as typeof v);
    }
    case 'contains':
      return text(v, x, (a, b) => a.includes(b));
    case 'icontains':
      return text(v, x, ci((a, b) => a.includes(b)));
    case 'startswith':
      return text(v, x, (a, b) => a.startsWith(b));
    case 'istartswith':
      return text(v, x, ci((a, b) => a.startsWith(b)));
    case 'endswith':
      return text(v, x, (a, b) => a.endsWith(b));
    case 'iendswith':
      return text(v, x, ci((a, b) => a.endsWith(b)));
    case 'includes':
      return Array.isArray(v) && v.some((item) => same(item, x));
    case 'exists':
      return (v !== undefined) === x;
    case 'isnull':
      return (v === undefined || v === null) === x;
  }
}

export function matches(doc: DeliveryDoc, node: WhereNode): boolean {
  switch (node.kind) {
    case 'condition':
      return holds(node, readField(doc, node.field));
    case 'all_of':
      return node.items.every((item) => matches(doc, item));
    case 'any_of':
      return node.items.some((item) => matches(doc, item));
    case 'none_of':
      return !node.items.some((item) => matches(doc, item));
  }
}

/**
 * A join holds when the field's value (a `folder::key` string, or an array of them) names a
 * published document of the joined collection that matches the join's tree.
 */
export function joinHolds(doc: DeliveryDoc, join: JoinFilter, lookup: (folder: string, key: string) => DeliveryDoc | null): boolean {
  const value = readField(doc, { scope: 'data', path: join.field });
  const refs = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  return refs.some((ref) => {
    const at = ref.indexOf('::');
    if (at < 0 || ref.slice(0, at) !== join.folder) return false;
    const target = lookup(join.folder, ref.slice(at + 2));
    return target !== null && target.data !== null && (join.where === undefined || matches(target, join.where));
  });
}

/** A value as it sorts: null (missing, null, object, array) first, then numbers (booleans as 0 / 1), then strings. */
export function sortValue(v: unknown): QueryScalar | null {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number' || typeof v === 'string') return v;
  return null;
}

const rank = (v: QueryScalar | null): number => (v === null ? 0 : typeof v === 'string' ? 2 : 1);
const numeric = (v: QueryScalar): number | string => (typeof v === 'boolean' ? Number(v) : v);

export function compareSortValues(a: QueryScalar | null, b: QueryScalar | null): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb || a === null || b === null) return ra - rb;
  const x = numeric(a);
  const y = numeric(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The boundary a page continues from: the item's sort values and key. */
export const cursorOf = (doc: DeliveryDoc, sort: readonly SortKey[]): QueryCursor => ({
  values: sort.map((s) => sortValue(readField(doc, s.field))),
  key: doc.key,
});

/** Orders documents by the sort keys, then by key in the direction of the last sort key. */
export function compareDocs(sort: readonly SortKey[]): (a: DeliveryDoc, b: DeliveryDoc) => number {
  const keys = effectiveSort({ sort });
  const tiebreakDescending = keys[keys.length - 1]?.descending ?? false;
  return (a, b) => {
    const ca = cursorOf(a, keys);
    const cb = cursorOf(b, keys);
    for (let i = 0; i < keys.length; i++) {
      const c = compareSortValues(ca.values[i] ?? null, cb.values[i] ?? null);
      if (c !== 0) return keys[i]?.descending ? -c : c;
    }
    const c = a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
    return tiebreakDescending ? -c : c;
  };
}
