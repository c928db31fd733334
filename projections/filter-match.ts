import type { Comparison, Doc, Filter, Scalar } from './ports.js';

/** The read-model filter language evaluated on one document in memory (as infra/sqlite/filter-sql.ts does in SQL). */

const valueAt = (doc: Doc, path: string): unknown =>
  path.split('.').reduce<unknown>((value, key) => (value && typeof value === 'object' && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined), doc);

const isComparison = (value: unknown): value is Comparison => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Equality where null also matches a missing field; booleans as stored. */
const equals = (actual: unknown, expected: Scalar): boolean => (expected === null ? actual === null || actual === undefined : actual === expected);

function ordered(actual: unknown, op: '$gt' | '$gte' | '$lt' | '$lte', bound: string | number): boolean {
  if (typeof actual !== typeof bound || (typeof actual !== 'string' && typeof actual !== 'number')) return false;
  const a = actual as string | number;
  return op === '$gt' ? a > bound : op === '$gte' ? a >= bound : op === '$lt' ? a < bound : a <= bound;
}

function compare(actual: unknown, cmp: Comparison): boolean {
  for (const [op, value] of Object.entries(cmp)) {
    if (value === undefined) continue;
    if (op === '$eq' && !equals(actual, value as Scalar)) return false;
    if (op === '$ne' && equals(actual, value as Scalar)) return false;
    if (op === '$in' && !(value as readonly Scalar[]).some((v) => equals(actual, v))) return false;
    // A field stored as null exists (json_type is 'null' in SQL, as in MongoDB).
    if (op === '$exists' && (actual !== undefined) !== value) return false;
    if ((op === '$gt' || op === '$gte' || op === '$lt' || op === '$lte') && !ordered(actual, op, value as string | number)) return false;
  }
  return true;
}

export function matchesFilter(doc: Doc, filter: Filter): boolean {
  for (const [field, condition] of Object.entries(filter)) {
    if (condition === undefined) continue;
    if (field === '$and') {
      if (!(condition as readonly Filter[]).every((f) => matchesFilter(doc, f))) return false;
    } else if (field === '$or') {
      if (!(condition as readonly Filter[]).some((f) => matchesFilter(doc, f))) return false;
    } else {
      const actual = field === '_id' ? doc._id : valueAt(doc, field);
      if (isComparison(condition) ? !compare(actual, condition) : !equals(actual, condition as Scalar)) return false;
    }
  }
  return true;
}
