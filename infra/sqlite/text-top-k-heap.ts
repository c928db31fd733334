import type { Scored } from '../../projections/search-ports.js';

/** The best `size` documents so far: a binary min-heap, the weakest (lowest score, then greatest key) on top. */
export class Heap {
  private readonly docs: number[] = [];
  private readonly scores: number[] = [];

  constructor(
    readonly size: number,
    private readonly keys: readonly string[],
    /** Each document's row in the delivery index (`docs.rowid`). */
    private readonly rowids: Float64Array,
  ) {}

  get full(): boolean {
    return this.docs.length >= this.size;
  }

  get threshold(): number {
    return this.scores[0]!;
  }

  private weaker(a: number, b: number): boolean {
    const sa = this.scores[a]!;
    const sb = this.scores[b]!;
    return sa < sb || (sa === sb && this.keys[this.docs[a]!]! > this.keys[this.docs[b]!]!);
  }

  /** Keeps the document if it beats the weakest kept one; whether it was kept. */
  offer(doc: number, score: number): boolean {
    if (this.full) {
      const top = this.scores[0]!;
      if (score < top || (score === top && this.keys[doc]! > this.keys[this.docs[0]!]!)) return false;
      this.docs[0] = doc;
      this.scores[0] = score;
      this.down(0);
      return true;
    }
    this.docs.push(doc);
    this.scores.push(score);
    this.up(this.docs.length - 1);
    return true;
  }

  private swap(a: number, b: number): void {
    [this.docs[a], this.docs[b]] = [this.docs[b]!, this.docs[a]!];
    [this.scores[a], this.scores[b]] = [this.scores[b]!, this.scores[a]!];
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.weaker(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.docs.length && this.weaker(l, m)) m = l;
      if (r < this.docs.length && this.weaker(r, m)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  sorted(): Scored[] {
    return this.docs
      .map((doc, i) => ({ key: this.keys[doc]!, score: this.scores[i]!, rowid: this.rowids[doc]! }))
      .sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
}
