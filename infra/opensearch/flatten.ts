import { fold } from '../../projections/delivery-query-eval.js';

/**
 * A payload value as OpenSearch indexes it for the delivery query AST: one entry per path
 * (objects are walked, arrays are not), its JSON type, and the value in the field its type
 * is queried by. `r` is the sort rank of the reference evaluator: 0 for null, objects and
 * arrays, 1 for numbers and booleans (`n` holds 0 / 1 for them), 2 for strings.
 */
export type ValueEntry = {
  readonly path: string;
  readonly type: 'text' | 'integer' | 'real' | 'true' | 'false' | 'null' | 'object' | 'array';
  readonly r: 0 | 1 | 2;
  readonly s?: string;
  readonly f?: string;
  readonly n?: number;
  readonly b?: boolean;
};

export function entryOf(path: string, value: unknown): ValueEntry {
  if (typeof value === 'string') return { path, type: 'text', r: 2, s: value, f: fold(value) };
  if (typeof value === 'number') return { path, type: Number.isInteger(value) ? 'integer' : 'real', r: 1, n: value };
  if (typeof value === 'boolean') return { path, type: value ? 'true' : 'false', r: 1, n: Number(value), b: value };
  if (Array.isArray(value)) return { path, type: 'array', r: 0 };
  if (value !== null && typeof value === 'object') return { path, type: 'object', r: 0 };
  return { path, type: 'null', r: 0 };
}

export function flatten(data: Record<string, unknown> | null): { values: ValueEntry[]; items: ValueEntry[] } {
  const values: ValueEntry[] = [];
  const items: ValueEntry[] = [];
  const walk = (value: unknown, path: string): void => {
    values.push(entryOf(path, value));
    if (Array.isArray(value)) for (const item of value) items.push(entryOf(path, item));
    else if (value !== null && typeof value === 'object') for (const [key, child] of Object.entries(value)) walk(child, `${path}.${key}`);
  };
  for (const [key, value] of Object.entries(data ?? {})) walk(value, key);
  return { values, items };
}
