import { nearestRows } from './vector-kernel.js';

/** A vector row of the index: its vec0 rowid, its document's rowid and its distance to a query. */
export type VectorHit = { readonly vrow: number; readonly doc: number; readonly distance: number };

/**
 * Copies a stored vector (a float32 blob, or its hex text: decoded in place, it leaves no
 * buffer behind for the collector) into `target`, scaled to length 1.
 */
export function normalizedInto(stored: Uint8Array | string, target: Float32Array): void {
  const bytes = Buffer.from(target.buffer, target.byteOffset, target.byteLength);
  if (typeof stored === 'string') bytes.write(stored, 'hex');
  else bytes.set(stored.subarray(0, target.byteLength));
  let sum = 0;
  for (let i = 0; i < target.length; i++) sum += target[i]! * target[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < target.length; i++) target[i] = target[i]! / norm;
}

/** Rows per segment of a block's matrix: a block grows by whole segments, never by copying what it holds. */
export const SEGMENT_ROWS = 16_384;
const FIRST_ROWS = 64;

/**
 * The vectors of one partition (collection and field) and locale, in memory (docs/decisions/0205):
 * row-major matrices of unit vectors, kept dense (a removed row takes the last one's place). The
 * first segment grows from 64 rows to SEGMENT_ROWS; after it, segments of SEGMENT_ROWS are added.
 */
export class VectorBlock {
  private readonly segments: Float32Array[];
  private vrows: Float64Array = new Float64Array(FIRST_ROWS);
  private docs: Float64Array = new Float64Array(FIRST_ROWS);
  private count = 0;
  private readonly slots = new Map<number, number>();

  constructor(private readonly dims: number) {
    this.segments = [new Float32Array(FIRST_ROWS * dims)];
  }

  get size(): number {
    return this.count;
  }

  /** Float32 bytes held (the segments' capacity). */
  get bytes(): number {
    return this.segments.reduce((sum, segment) => sum + segment.byteLength, 0);
  }

  /** Adds or replaces a row from its stored blob (or hex text). */
  put(vrow: number, doc: number, stored: Uint8Array | string): void {
    let slot = this.slots.get(vrow);
    if (slot === undefined) {
      slot = this.count++;
      this.reserve(this.count);
      this.slots.set(vrow, slot);
    }
    this.vrows[slot] = vrow;
    this.docs[slot] = doc;
    normalizedInto(stored, this.row(slot));
  }

  remove(vrow: number): void {
    const slot = this.slots.get(vrow);
    if (slot === undefined) return;
    this.slots.delete(vrow);
    const last = --this.count;
    if (slot !== last) {
      this.row(slot).set(this.row(last));
      this.vrows[slot] = this.vrows[last]!;
      this.docs[slot] = this.docs[last]!;
      this.slots.set(this.vrows[slot]!, slot);
    }
    if (this.segments.length > 1 && this.count <= (this.segments.length - 1) * SEGMENT_ROWS) this.segments.pop();
  }

  /** The k rows nearest a unit query vector, nearest first (ties by vrow). */
  nearest(query: Float32Array, k: number): VectorHit[] {
    const hits: VectorHit[] = [];
    this.segments.forEach((segment, at) => {
      const first = at * SEGMENT_ROWS;
      const { rows, distances } = nearestRows(segment, Math.min(this.count - first, segment.length / this.dims), this.dims, query, k);
      rows.forEach((row, i) => hits.push({ vrow: this.vrows[first + row]!, doc: this.docs[first + row]!, distance: distances[i]! }));
    });
    if (this.segments.length > 1) hits.sort((a, b) => a.distance - b.distance || a.vrow - b.vrow);
    return hits.slice(0, k);
  }

  /** Gives back the first segment's unused capacity once a load is over. */
  trim(): void {
    const first = this.segments[0]!;
    const needed = Math.max(FIRST_ROWS, Math.ceil(this.count * 1.1)) * this.dims;
    if (this.segments.length === 1 && needed < first.length) this.segments[0] = first.slice(0, needed);
  }

  private row(slot: number): Float32Array {
    const segment = this.segments[Math.floor(slot / SEGMENT_ROWS)]!;
    const at = (slot % SEGMENT_ROWS) * this.dims;
    return segment.subarray(at, at + this.dims);
  }

  /** Room for `rows` rows. */
  private reserve(rows: number): void {
    if (rows > this.vrows.length) {
      const capacity = Math.ceil(rows * 1.5);
      this.vrows = grown(this.vrows, capacity);
      this.docs = grown(this.docs, capacity);
    }
    const first = this.segments[0]!;
    if (this.segments.length === 1 && first.length < SEGMENT_ROWS * this.dims && rows * this.dims > first.length) {
      const segment = new Float32Array(Math.min(SEGMENT_ROWS, (first.length / this.dims) * 2) * this.dims);
      segment.set(first);
      this.segments[0] = segment;
    } else if (rows > this.segments.length * SEGMENT_ROWS) {
      this.segments.push(new Float32Array(SEGMENT_ROWS * this.dims));
    }
  }
}

function grown(array: Float64Array, capacity: number): Float64Array {
  const bigger = new Float64Array(capacity);
  bigger.set(array);
  return bigger;
}
