/** A seed's mark of a document it has scored exactly or found out of the collection (above the terms' bits, text-top-k-seed.ts's MAX_TERMS). */
export const DONE = 1 << 30;

/** The first size of the table of read documents, in slots (a power of two). */
const FIRST_BITS = 12;

/**
 * The searches' scratch space (text-top-k-seed.ts, text-top-k.ts), kept between searches so that
 * none allocates or clears anything per document (docs/decisions/0280):
 * - per document, the search that last scored it or found it out of the collection (`seen`),
 *   which the walk after an undecided seed skips;
 * - the documents the current seed has read, in a small open-addressing table: per slot the
 *   document, what its bound knows (`known`) and which terms that covers (`terms`, one bit per
 *   query term, and DONE), and the slots in the order their documents were first read (`read`).
 * A seed reads about 800 documents scattered over 100,000: arrays over every document cost a
 * cache miss per array and read (four of them), the table of a few thousand slots stays in cache.
 */
export class SeedMarks {
  seen = new Int32Array(16);
  private bits = FIRST_BITS;
  private slotStamp = new Int32Array(1 << FIRST_BITS);
  private slotDoc = new Int32Array(1 << FIRST_BITS);
  known = new Float64Array(1 << FIRST_BITS);
  terms = new Int32Array(1 << FIRST_BITS);
  /** The slots of the documents read, in the order they were first read, `count` of them; `bounds` for step 3. */
  read = new Int32Array(1 << (FIRST_BITS - 1));
  bounds = new Float64Array(1 << (FIRST_BITS - 1));
  count = 0;
  /** After `slot`: whether the document was not in the table before. */
  added = false;
  private stamp = 0;

  /** A number no document's or slot's marks hold yet, for one search over `docs` documents; the table emptied. */
  begin(docs: number): number {
    if (this.seen.length < docs) {
      // Marks of earlier searches are older stamps than any to come: copying them is not needed.
      this.seen = new Int32Array(Math.max(docs, Math.ceil(this.seen.length * 1.5)));
      this.slotStamp.fill(0);
      this.stamp = 0;
    }
    if (this.stamp === 0x7fffffff) {
      this.seen.fill(0);
      this.slotStamp.fill(0);
      this.stamp = 0;
    }
    this.count = 0;
    return ++this.stamp;
  }

  /** The document's slot, added (nothing known, no terms) if the seed had not read it. */
  slot(d: number): number {
    const { slotStamp, slotDoc, stamp } = this;
    const mask = (1 << this.bits) - 1;
    for (let s = Math.imul(d, 0x9e3779b1) >>> (32 - this.bits); ; s = (s + 1) & mask) {
      if (slotStamp[s] !== stamp) {
        if (2 * (this.count + 1) > mask + 1) {
          this.grow();
          return this.slot(d);
        }
        slotStamp[s] = stamp;
        slotDoc[s] = d;
        this.known[s] = 0;
        this.terms[s] = 0;
        this.read[this.count++] = s;
        this.added = true;
        return s;
      }
      if (slotDoc[s] === d) {
        this.added = false;
        return s;
      }
    }
  }

  /** The document's slot if the seed has read it, else -1. */
  find(d: number): number {
    const { slotStamp, slotDoc, stamp } = this;
    const mask = (1 << this.bits) - 1;
    for (let s = Math.imul(d, 0x9e3779b1) >>> (32 - this.bits); ; s = (s + 1) & mask) {
      if (slotStamp[s] !== stamp) return -1;
      if (slotDoc[s] === d) return s;
    }
  }

  /** The document in a slot. */
  docOf(s: number): number {
    return this.slotDoc[s]!;
  }

  /** Twice the slots, the documents put back in the order they were read. */
  private grow(): void {
    const { slotDoc, known, terms, read, count } = this;
    this.bits += 1;
    const size = 1 << this.bits;
    this.slotStamp = new Int32Array(size);
    this.slotDoc = new Int32Array(size);
    this.known = new Float64Array(size);
    this.terms = new Int32Array(size);
    this.read = new Int32Array(size >> 1);
    this.bounds = new Float64Array(size >> 1);
    this.count = 0;
    for (let i = 0; i < count; i++) {
      const old = read[i]!;
      const s = this.slot(slotDoc[old]!);
      this.known[s] = known[old]!;
      this.terms[s] = terms[old]!;
    }
  }
}
