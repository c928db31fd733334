import { nearestRows } from './vector-kernel.js';

/** A vector row of the index: its vec0 rowid, its document's rowid and its distance to a query. */
export type VectorHit = { readonly vrow: number; readonly doc: number; readonly distance: number };

/** Copies a stored vector (a float32 blob) into `target`, scaled to length 1. */
export function normalizedInto(blob: Uint8Array, target: Float32Array): void {
  new Uint8Array(target.buffer, target.byteOffset, target.byteLength).set(blob.subarray(0, target.byteLength));
  let sum = 0;
  for (let i = 0; i < target.length; i++) sum += target[i]! * target[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < target.length; i++) target[i] = target[i]! / norm;
}

/**
 * The vectors of one partition (collection and field) and locale, in memory (docs/decisions/0205):
 * a row-major matrix of unit vectors kept dense (a removed row takes the last one's place).
 */
export class VectorBlock {
  private matrix: Float32Array;
  private vrows: Float64Array;
  private docs: Float64Array;
  private count = 0;
  private readonly slots = new Map<number, number>();

  constructor(private readonly dims: number) {
    this.matrix = new Float32Array(64 * dims);
    this.vrows = new Float64Array(64);
    this.docs = new Float64Array(64);
  }

  get size(): number {
    return this.count;
  }

  /** Float32 bytes held (the matrix's capacity). */
  get bytes(): number {
    return this.matrix.byteLength;
  }

  has(vrow: number): boolean {
    return this.slots.has(vrow);
  }

  /** Adds or replaces a row from its stored blob. */
  put(vrow: number, doc: number, blob: Uint8Array): void {
    let slot = this.slots.get(vrow);
    if (slot === undefined) {
      if (this.count === this.vrows.length) this.grow();
      slot = this.count++;
      this.slots.set(vrow, slot);
    }
    this.vrows[slot] = vrow;
    this.docs[slot] = doc;
    normalizedInto(blob, this.matrix.subarray(slot * this.dims, (slot + 1) * this.dims));
  }

  remove(vrow: number): void {
    const slot = this.slots.get(vrow);
    if (slot === undefined) return;
    this.slots.delete(vrow);
    const last = --this.count;
    if (slot !== last) {
      this.matrix.copyWithin(slot * this.dims, last * this.dims, (last + 1) * this.dims);
      this.vrows[slot] = this.vrows[last]!;
      this.docs[slot] = this.docs[last]!;
      this.slots.set(this.vrows[slot]!, slot);
    }
  }

  /** The k rows nearest a unit query vector, nearest first. */
  nearest(query: Float32Array, k: number): VectorHit[] {
    const { rows, distances } = nearestRows(this.matrix, this.count, this.dims, query, k);
    return rows.map((slot, i) => ({ vrow: this.vrows[slot]!, doc: this.docs[slot]!, distance: distances[i]! }));
  }

  /** Gives back unused capacity once a bulk load is over. */
  trim(): void {
    const capacity = Math.max(64, Math.ceil(this.count * 1.1));
    if (capacity < this.vrows.length) this.resize(capacity);
  }

  private grow(): void {
    this.resize(Math.ceil(this.vrows.length * 1.5));
  }

  private resize(capacity: number): void {
    const matrix = new Float32Array(capacity * this.dims);
    matrix.set(this.matrix.subarray(0, this.count * this.dims));
    const vrows = new Float64Array(capacity);
    vrows.set(this.vrows.subarray(0, this.count));
    const docs = new Float64Array(capacity);
    docs.set(this.docs.subarray(0, this.count));
    this.matrix = matrix;
    this.vrows = vrows;
    this.docs = docs;
  }
}
