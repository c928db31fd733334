import { DomainError } from '../domain/errors.js';

const invalid = (name: string, message: string): DomainError =>
  new DomainError('validation_error', `Invalid query parameter ${name}.`, { [name]: [message] });

/** A single string query value (a repeated parameter is refused). */
export function queryString(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(name, 'must be given once, as a string');
  return value;
}

/** Query-string booleans: `true` / `false` (or 1 / 0), else 422. */
export function queryBool(query: Record<string, unknown>, name: string, fallback: boolean): boolean {
  const value = queryString(query, name);
  if (value === undefined) return fallback;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw invalid(name, 'must be true or false');
}

/** The largest integer a query parameter takes: exact in JavaScript and within every store's integer range. */
export const MAX_QUERY_INT = Number.MAX_SAFE_INTEGER;

/** A non-negative integer query value, at most MAX_QUERY_INT. */
export function queryInt(query: Record<string, unknown>, name: string, fallback: number, min = 0): number {
  const value = queryString(query, name);
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > MAX_QUERY_INT) {
    throw invalid(name, `must be an integer from ${min} to ${MAX_QUERY_INT}`);
  }
  return Number(value);
}

/** One of the listed values. */
export function queryEnum<T extends string>(query: Record<string, unknown>, name: string, values: readonly T[], fallback: T): T {
  const value = queryString(query, name);
  if (value === undefined) return fallback;
  if (!(values as readonly string[]).includes(value)) throw invalid(name, `must be one of ${values.join(', ')}`);
  return value as T;
}

/** An ISO 8601 datetime, returned normalised to `toISOString()` form. */
export function queryDatetime(query: Record<string, unknown>, name: string): string | undefined {
  const value = queryString(query, name);
  if (value === undefined) return undefined;
  const time = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(time)) throw invalid(name, 'must be an ISO 8601 datetime');
  return new Date(time).toISOString();
}

/** A route parameter (merged from parent routers). */
export function param(req: { params: unknown }, name: string): string {
  const value = (req.params as Record<string, string | undefined>)[name];
  if (value === undefined) throw new Error(`route has no :${name}`);
  return value;
}
