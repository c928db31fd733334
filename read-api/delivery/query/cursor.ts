import { DomainError } from '../../../domain/errors.js';
import type { QueryCursor, QueryScalar, SortKey } from '../../../projections/delivery-query.js';
import { fieldName } from '../../../projections/delivery-query.js';

/** The sort a cursor was made for, so a cursor is never read under another order. */
const signature = (sort: readonly SortKey[]): string => sort.map((s) => `${s.descending ? '-' : ''}${fieldName(s.field)}`).join(',');

/** A cursor as clients carry it: opaque base64url of [sort, values, key]. */
export const encodeCursor = (cursor: QueryCursor, sort: readonly SortKey[]): string =>
  Buffer.from(JSON.stringify([signature(sort), cursor.values, cursor.key])).toString('base64url');

const isValue = (v: unknown): v is QueryScalar | null => v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

export function decodeCursor(value: string, name: string, sort: readonly SortKey[]): QueryCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  if (Array.isArray(parsed) && parsed.length === 3 && typeof parsed[0] === 'string' && Array.isArray(parsed[1]) && typeof parsed[2] === 'string') {
    const [sig, values, key] = parsed as [string, unknown[], string];
    if (sig === signature(sort) && values.length === sort.length && values.every(isValue)) return { values, key };
    throw new DomainError('validation_error', `Invalid ${name} cursor.`, { [name]: ['belongs to a list with another sort'] });
  }
  throw new DomainError('validation_error', `Invalid ${name} cursor.`, { [name]: ['is not a cursor of this list'] });
}
