import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The rows nearest a query: their indexes in the matrix and their distances (1 - dot product), nearest first. */
export type Nearest = { readonly rows: readonly number[]; readonly distances: readonly number[] };

/**
 * Exact k-NN over a row-major matrix of unit vectors (docs/decisions/0205): `count` rows of
 * `dims` float32s, the query a unit vector too, distance = 1 - dot product (the cosine distance).
 */
export type Kernel = (matrix: Float32Array, count: number, dims: number, query: Float32Array, k: number) => Nearest;

type Usearch = {
  exactSearch(dataset: Float32Array, queries: Float32Array, dims: number, count: number, metric: string, threads: number): { keys: BigUint64Array; distances: Float32Array };
  MetricKind: { IP: string };
};

/** usearch's exact search: SIMD inner products, one thread (a second one lost on the shared machine, 0183). */
function usearchKernel(usearch: Usearch): Kernel {
  return (matrix, count, dims, query, k) => {
    const n = Math.min(k, count);
    if (n === 0) return { rows: [], distances: [] };
    const found = usearch.exactSearch(matrix.subarray(0, count * dims), query, dims, n, usearch.MetricKind.IP, 1);
    return { rows: Array.from(found.keys, Number), distances: Array.from(found.distances) };
  };
}

/** The same search in plain JavaScript, for platforms without usearch's prebuilt binary. */
export const scriptKernel: Kernel = (matrix, count, dims, query, k) => {
  const n = Math.min(k, count);
  if (n === 0) return { rows: [], distances: [] };
  // The n best so far, kept sorted (nearest first); `worst` is the distance to beat.
  const rows: number[] = [];
  const distances: number[] = [];
  let worst = Infinity;
  const d4 = dims - (dims % 4);
  for (let row = 0, at = 0; row < count; row++, at += dims) {
    let a = 0, b = 0, c = 0, e = 0, j = 0;
    for (; j < d4; j += 4) {
      a += matrix[at + j]! * query[j]!;
      b += matrix[at + j + 1]! * query[j + 1]!;
      c += matrix[at + j + 2]! * query[j + 2]!;
      e += matrix[at + j + 3]! * query[j + 3]!;
    }
    for (; j < dims; j++) a += matrix[at + j]! * query[j]!;
    const distance = Math.fround(1 - (a + b + (c + e)));
    if (rows.length === n && distance >= worst) continue;
    let place = rows.length;
    while (place > 0 && distances[place - 1]! > distance) place--;
    rows.splice(place, 0, row);
    distances.splice(place, 0, distance);
    if (rows.length > n) {
      rows.pop();
      distances.pop();
    }
    if (rows.length === n) worst = distances[n - 1]!;
  }
  return { rows, distances };
};

function load(): { readonly kernel: Kernel; readonly name: string } {
  try {
    return { kernel: usearchKernel(require('usearch') as Usearch), name: 'usearch' };
  } catch {
    return { kernel: scriptKernel, name: 'javascript' };
  }
}

/** Chosen on the first scan: a process that never searches vectors never loads usearch. */
let chosen: { readonly kernel: Kernel; readonly name: string } | undefined;
const choose = () => (chosen ??= load());

/** The kernel this process uses: usearch where its binary loads, else the JavaScript scan. */
export const nearestRows: Kernel = (matrix, count, dims, query, k) => choose().kernel(matrix, count, dims, query, k);
export const kernelName = (): string => choose().name;
