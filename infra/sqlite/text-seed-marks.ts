/**
 * The searches' scratch space (text-top-k-seed.ts, text-top-k.ts), kept between searches so that
 * none allocates or clears anything per document: per document the search that last scored it
 * (or found it out of the collection), the search that last bounded it, and that bound's known
 * part and terms (one bit per query term); and the list of the documents one seed has bounded,
 * in the order it read them, with their bounds (docs/decisions/0280).
 */
export class SeedMarks {
  seen = new Int32Array(16);
  bounded = new Int32Array(16);
  known = new Float64Array(16);
  terms = new Int32Array(16);
  /** The documents bounded by the current seed, `count` of them, and (step 3) their bounds. */
  read = new Int32Array(1024);
  bounds = new Float64Array(1024);
  count = 0;
  private stamp = 0;

  /** A number no document's marks hold yet, for one search over `docs` documents; the read list emptied. */
  begin(docs: number): number {
    if (this.seen.length < docs) {
      const size = Math.max(docs, Math.ceil(this.seen.length * 1.5));
      // Marks of earlier searches are older stamps than any to come: copying them is not needed.
      this.seen = new Int32Array(size);
      this.bounded = new Int32Array(size);
      this.known = new Float64Array(size);
      this.terms = new Int32Array(size);
      this.stamp = 0;
    }
    if (this.stamp === 0x7fffffff) {
      this.seen.fill(0);
      this.bounded.fill(0);
      this.stamp = 0;
    }
    this.count = 0;
    return ++this.stamp;
  }

  /** Adds a document to the read list. */
  push(d: number): void {
    if (this.count === this.read.length) {
      const read = new Int32Array(this.read.length * 2);
      read.set(this.read);
      this.read = read;
      this.bounds = new Float64Array(read.length);
    }
    this.read[this.count++] = d;
  }
}
