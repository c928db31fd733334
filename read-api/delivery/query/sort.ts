import { DomainError } from '../../../domain/errors.js';
import type { SortKey } from '../../../projections/delivery-query.js';
import { resolveField, unknownField, type FieldContext } from './fields.js';

export const MAX_SORT_KEYS = 5;
const SORTABLE: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean']);

/**
 * `sort`: a comma list (GET) or an array (body) of field names, `-` first for descending:
 * `-_sys.created_at,title`. Only scalar fields sort; localizable ones in the search locale.
 */
export function parseSort(input: unknown, context: FieldContext, name = 'sort'): SortKey[] {
  if (input === undefined) return [];
  const entries = typeof input === 'string' ? input.split(',') : Array.isArray(input) ? input : null;
  const refuse = (problem: string): never => {
    throw new DomainError('validation_error', `Invalid ${name}.`, { [name]: [problem] });
  };
  if (entries === null) return refuse('must be a comma-separated list of field names');
  if (entries.length > MAX_SORT_KEYS) refuse(`names at most ${MAX_SORT_KEYS} fields`);
  return entries.map((entry: unknown) => {
    if (typeof entry !== 'string' || entry === '' || entry === '-') return refuse('must hold field names, - first for descending');
    const descending = entry.startsWith('-');
    const field = descending ? entry.slice(1) : entry;
    const resolved = resolveField(field, context);
    if (!resolved) return refuse(unknownField(field, context));
    if (!SORTABLE.has(resolved.kind)) return refuse(`${field} is not a string, number or boolean field`);
    return { field: resolved.ref, descending };
  });
}
