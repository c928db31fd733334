import type { DeliveryDoc } from '../../projections/ports.js';

/** The result keys of a `_search` or list answer, in order. */
export const keysOf = (body: { results: { _sys: { key: string } }[] }): string[] => body.results.map((r) => r._sys.key);

/** A vector of `dims` zeros with a 1 at `at`. */
export const unitVector = (dims: number, at: number): number[] => Array.from({ length: dims }, (_, i) => (i === at ? 1 : 0));

export const vec = (...values: number[]): Float32Array => Float32Array.from(values);

/** A delivery document of collection `f` in `env`, published with `{ title: key }` unless told. */
export const searchDoc = (env: string, key: string, data: Record<string, unknown> | null = { title: key }): DeliveryDoc => ({
  env,
  folder: 'f',
  key,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  owner: null,
  data,
});

/** Document `n` of collection `f1` in `e1`, key `k00n`, created `n` seconds into 2026 (so keys and creation order agree). */
export const numberedDoc = (n: number, data: Record<string, unknown>): DeliveryDoc => ({
  env: 'e1',
  folder: 'f1',
  key: `k${String(n).padStart(3, '0')}`,
  created_at: `2026-01-01T00:00:${String(n).padStart(2, '0')}Z`,
  updated_at: '2026-02-01T00:00:00Z',
  owner: null,
  data,
});
