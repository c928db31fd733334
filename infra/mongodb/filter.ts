import type { Document, Sort as MongoSort } from 'mongodb';
import type { Comparison, Filter, Sort } from '../../projections/ports.js';

/**
 * Our filter language is a subset of MongoDB's and passes through nearly as is. What is
 * done here: field paths and operators are checked (no `$where` or `$regex` sneaks in),
 * `undefined` entries are dropped (BSON would store them as null), an empty comparison
 * means "no condition" and an empty `$and` / `$or` means true / false, as on SQLite
 * (MongoDB rejects empty arrays there).
 */

const PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const OPERATORS = new Set(['$eq', '$ne', '$in', '$gt', '$gte', '$lt', '$lte', '$exists']);
/** Matches no document: every document has an _id. */
const NOTHING: Document = { _id: { $exists: false } };

export function checkPath(field: string): string {
  if (!PATH.test(field)) throw new Error(`invalid field path: ${field}`);
  return field;
}

const isComparison = (value: unknown): value is Comparison => typeof value === 'object' && value !== null && !Array.isArray(value);

function comparison(cmp: Comparison): Document | undefined {
  const out: Document = {};
  for (const [op, value] of Object.entries(cmp)) {
    if (value === undefined) continue;
    if (!OPERATORS.has(op)) throw new Error(`unsupported operator ${op}`);
    if (op === '$in' && !Array.isArray(value)) throw new Error('$in takes an array');
    out[op] = value;
  }
  return Object.keys(out).length ? out : undefined;
}

export function toMongoFilter(filter: Filter): Document {
  const out: Document = {};
  const and: Document[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    if (key === '$and' || key === '$or') {
      const subs = (value as readonly Filter[]).map(toMongoFilter);
      if (key === '$and') and.push(...subs);
      else and.push(subs.length ? { $or: subs } : NOTHING);
    } else if (isComparison(value)) {
      const cmp = comparison(value);
      if (cmp) out[checkPath(key)] = cmp;
    } else out[checkPath(key)] = value;
  }
  if (and.length) out.$and = and;
  return out;
}

/** The requested order, then `_id` ascending as the final tie-breaker (like the SQLite adapter). */
export function toMongoSort(sort: Sort | undefined): MongoSort {
  const terms: [string, 1 | -1][] = (sort ?? []).map(([field, direction]) => [checkPath(field), direction]);
  if (!terms.some(([field]) => field === '_id')) terms.push(['_id', 1]);
  return terms;
}
