import type { Comparison, Filter, Scalar, Sort } from '../../projections/ports.js';

/** Translates the read-model filter language to SQL over a JSON `doc` column. */

const PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

export type SqlParam = string | number | null;

export function fieldExpr(field: string): string {
  if (field === '_id') return 'id';
  if (!PATH.test(field)) throw new Error(`invalid field path: ${field}`);
  return `json_extract(doc, '$.${field}')`;
}

const param = (value: Scalar): SqlParam => (typeof value === 'boolean' ? (value ? 1 : 0) : value);

function isComparison(value: unknown): value is Comparison {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function equals(expr: string, value: Scalar, params: SqlParam[]): string {
  if (value === null) return `${expr} IS NULL`;
  params.push(param(value));
  return `${expr} = ?`;
}

function compare(field: string, cmp: Comparison, params: SqlParam[]): string {
  const expr = fieldExpr(field);
  const parts: string[] = [];
  const ordered = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;
  for (const [op, value] of Object.entries(cmp)) {
    if (value === undefined) continue;
    if (op === '$eq') parts.push(equals(expr, value as Scalar, params));
    else if (op === '$ne') {
      if (value === null) parts.push(`${expr} IS NOT NULL`);
      else {
        params.push(param(value as Scalar));
        parts.push(`(${expr} IS NULL OR ${expr} <> ?)`);
      }
    } else if (op === '$in') {
      const list = value as readonly Scalar[];
      const present = list.filter((v) => v !== null);
      const alternatives: string[] = [];
      if (list.length !== present.length) alternatives.push(`${expr} IS NULL`);
      if (present.length > 0) {
        params.push(...present.map(param));
        alternatives.push(`${expr} IN (${present.map(() => '?').join(', ')})`);
      }
      parts.push(alternatives.length ? `(${alternatives.join(' OR ')})` : '0');
    } else if (op === '$exists') {
      const type = field === '_id' ? 'id' : `json_type(doc, '$.${field}')`;
      parts.push(value ? `${type} IS NOT NULL` : `${type} IS NULL`);
    } else if (op in ordered) {
      params.push(value as string | number);
      parts.push(`${expr} ${ordered[op as keyof typeof ordered]} ?`);
    } else throw new Error(`unsupported operator ${op}`);
  }
  return parts.length ? parts.join(' AND ') : '1';
}

export function whereSql(filter: Filter, params: SqlParam[]): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    if (key === '$and' || key === '$or') {
      const subs = (value as readonly Filter[]).map((f) => `(${whereSql(f, params)})`);
      if (subs.length === 0) parts.push(key === '$and' ? '1' : '0');
      else parts.push(`(${subs.join(key === '$and' ? ' AND ' : ' OR ')})`);
    } else if (isComparison(value)) parts.push(compare(key, value, params));
    else parts.push(equals(fieldExpr(key), value as Scalar, params));
  }
  return parts.length ? parts.join(' AND ') : '1';
}

export function orderSql(sort: Sort | undefined): string {
  const terms = (sort ?? []).map(([field, dir]) => `${fieldExpr(field)} ${dir === 1 ? 'ASC' : 'DESC'}`);
  if (!(sort ?? []).some(([field]) => field === '_id')) terms.push('id ASC');
  return terms.join(', ');
}
