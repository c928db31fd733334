import type { Impacts } from './text-impacts.js';

/**
 * The postings of one term in the in-memory text index (docs/decisions/0200): the row slots
 * holding the term, ascending, with the term's frequency in each, in typed arrays. `df` counts
 * the live rows among them (FTS5's "rows containing the term"); postings of removed rows stay
 * until the index is compacted. `bound` is the most one document can take from this term before
 * the idf (the sum over its rows of BM25's frequency part), valid while the average row length
 * is at most `ref`; 0 until computed. `parts`: per posting, BM25's frequency part of its row at
 * `ref` in 255ths of its greatest value (K1 + 1), rounded up (docs/decisions/0255): a bound read
 * in order with the slots, valid once `ref` is set.
 */
export class Postings {
  /** The term's documents in impact order (text-impacts.ts), made on a search's demand; null: not made or dropped. */
  impacts: Impacts | null = null;
  slots: Int32Array;
  tfs: Uint8Array | Uint16Array | Uint32Array;
  parts: Uint8Array;
  length = 0;
  df = 0;
  bound = 0;
  ref = 0;

  constructor(capacity = 4) {
    this.slots = new Int32Array(capacity);
    this.tfs = new Uint8Array(capacity);
    this.parts = new Uint8Array(capacity);
  }

  push(slot: number, tf: number): void {
    if (this.length === this.slots.length) this.grow(Math.max(4, Math.ceil(this.length * 1.5)));
    // Frequencies take a byte until one needs more.
    if (tf > 0xff && this.tfs instanceof Uint8Array) this.tfs = Uint16Array.from(this.tfs);
    if (tf > 0xffff && this.tfs instanceof Uint16Array) this.tfs = Uint32Array.from(this.tfs);
    this.slots[this.length] = slot;
    this.tfs[this.length] = tf;
    this.length += 1;
  }

  /** One more occurrence in the row of posting `at`. */
  count(at: number): void {
    const tf = this.tfs[at]! + 1;
    if (tf > 0xff && this.tfs instanceof Uint8Array) this.tfs = Uint16Array.from(this.tfs);
    if (tf > 0xffff && this.tfs instanceof Uint16Array) this.tfs = Uint32Array.from(this.tfs);
    this.tfs[at] = tf;
  }

  private grow(capacity: number): void {
    const slots = new Int32Array(capacity);
    slots.set(this.slots.subarray(0, this.length));
    const tfs = this.tfs instanceof Uint8Array ? new Uint8Array(capacity) : this.tfs instanceof Uint16Array ? new Uint16Array(capacity) : new Uint32Array(capacity);
    tfs.set(this.tfs.subarray(0, this.length));
    const parts = new Uint8Array(capacity);
    parts.set(this.parts.subarray(0, this.length));
    this.slots = slots;
    this.tfs = tfs;
    this.parts = parts;
  }

  /** Drops the spare capacity (after a bulk load). */
  trim(): void {
    if (this.slots.length > this.length) this.grow(this.length);
  }

  /** Keeps the postings whose slot `renumber` maps to a new slot (>= 0), renumbered. */
  compact(renumber: Int32Array): void {
    let kept = 0;
    for (let i = 0; i < this.length; i++) {
      const slot = renumber[this.slots[i]!]!;
      if (slot < 0) continue;
      this.slots[kept] = slot;
      this.tfs[kept] = this.tfs[i]!;
      this.parts[kept] = this.parts[i]!;
      kept += 1;
    }
    this.length = kept;
    this.trim();
  }

  /** The first posting whose slot is >= `slot` (binary search over all of them). */
  find(slot: number): number {
    const slots = this.slots;
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (slots[mid]! < slot) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first posting at or after `from` whose slot is >= `slot` (galloping, then binary search). */
  seek(from: number, slot: number): number {
    const slots = this.slots;
    const end = this.length;
    if (from >= end || slots[from]! >= slot) return from;
    let step = 1;
    let lo = from;
    let hi = from + 1;
    while (hi < end && slots[hi]! < slot) {
      lo = hi;
      step *= 2;
      hi = from + step;
    }
    if (hi > end) hi = end;
    while (lo + 1 < hi) {
      const mid = (lo + hi) >>> 1;
      if (slots[mid]! < slot) lo = mid;
      else hi = mid;
    }
    return hi;
  }
}
