import type { Scored } from '../../projections/search-ports.js';
import { B, K1, idf, type TextMemoryIndex } from './text-memory-index.js';
import type { Postings } from './text-postings.js';

/** What the in-memory index is asked: terms (single tokens, in the FTS5 query's order), where, how many. */
export type TopKQuery = {
  readonly terms: readonly string[];
  readonly scope: string;
  readonly fields: readonly string[];
  /** Rows of this locale and of locale ''; null: every locale. */
  readonly locale: string | null;
  readonly limit: number;
};

type Term = { readonly order: number; readonly postings: Postings; readonly idf: number; readonly upper: number; at: number };

/** Bounds are compared with this slack, so that rounding never prunes a document that belongs in the answer. */
const SLACK = 1e-9;

/**
 * The best documents of a collection for a query of OR-ed terms, by the sum of their rows' BM25
 * scores exactly as FTS5's bm25() computes each row's (docs/decisions/0200), ties by key; only
 * the rows of the named fields and locale count. MaxScore: terms are ordered by the most they can
 * add to a document; once the best `limit` documents so far score more than the weakest terms can
 * add together, only documents holding one of the other terms are visited, and the weak terms'
 * postings are skipped to them.
 */
export function topK(index: TextMemoryIndex, query: TopKQuery): Scored[] {
  const scope = index.scopes.find(query.scope);
  if (scope === undefined || query.limit <= 0 || index.rows === 0) return [];
  const fieldOk = new Uint8Array(index.fields.size);
  for (const field of query.fields) {
    const id = index.fields.find(field);
    if (id !== undefined) fieldOk[id] = 1;
  }
  const localeOk = new Uint8Array(index.locales.size).fill(query.locale === null ? 1 : 0);
  if (query.locale !== null) for (const locale of [query.locale, '']) {
    const id = index.locales.find(locale);
    if (id !== undefined) localeOk[id] = 1;
  }
  const terms: Term[] = [];
  query.terms.forEach((name, order) => {
    const postings = index.terms.get(name);
    if (!postings || postings.df === 0) return;
    const weight = idf(index.rows, postings.df);
    terms.push({ order, postings, idf: weight, upper: weight * index.boundOf(postings) * (1 + SLACK), at: 0 });
  });
  if (terms.length === 0) return [];
  terms.sort((a, b) => a.upper - b.upper);
  const below = new Float64Array(terms.length + 1);
  for (let i = 0; i < terms.length; i++) below[i + 1] = below[i]! + terms[i]!.upper;
  return new Search(index, terms, below, fieldOk, localeOk, scope, query).run();
}

class Search {
  private readonly average: number;
  private readonly width: number;
  /** Per row of the document being scored: each term's part, by the term's place in the query. */
  private readonly parts: Float64Array;
  private readonly matched: Uint8Array;
  private readonly best: Heap;
  private essential = 0;

  constructor(
    private readonly index: TextMemoryIndex,
    private readonly terms: Term[],
    private readonly below: Float64Array,
    private readonly fieldOk: Uint8Array,
    private readonly localeOk: Uint8Array,
    private readonly scope: number,
    query: TopKQuery,
  ) {
    this.average = index.averageLength;
    this.width = query.terms.length;
    this.parts = new Float64Array(index.maxDocRows * this.width);
    this.matched = new Uint8Array(index.maxDocRows);
    this.best = new Heap(query.limit, index.docKey);
  }

  run(): Scored[] {
    const { index, terms } = this;
    for (;;) {
      if (this.essential === terms.length - 1) {
        this.runOne();
        break;
      }
      if (this.essential >= terms.length) break;
      let slot = 0x7fffffff;
      for (let i = this.essential; i < terms.length; i++) {
        const term = terms[i]!;
        if (term.at < term.postings.length) slot = Math.min(slot, term.postings.slots[term.at]!);
      }
      if (slot === 0x7fffffff) break;
      const d = index.rowDoc[slot]!;
      const first = index.docFirst[d]!;
      const end = first + index.docRows[d]!;
      if (index.rowAlive[slot] === 1 && index.docScope[d] === this.scope && slot >= first && slot < end && this.mayEnter(first, end)) this.score(d, first, end);
      // Every essential cursor moves past this document's rows (or past this dead row).
      const next = slot >= first && slot < end ? end : slot + 1;
      for (let i = this.essential; i < terms.length; i++) {
        const term = terms[i]!;
        term.at = term.postings.seek(term.at, next);
      }
    }
    return this.best.sorted();
  }

  /**
   * The same walk once one term is left essential (the usual case once the best are good): along
   * its postings, each document bounded by this term's parts and the others' bounds before
   * anything else is done for it.
   */
  private runOne(): void {
    const { index, terms, below } = this;
    const last = terms.length - 1;
    const term = terms[last]!;
    const { slots, tfs, length } = term.postings;
    const weight = term.idf;
    const average = this.average;
    for (let at = term.at; at < length && this.essential === last; ) {
      const slot = slots[at]!;
      const d = index.rowDoc[slot]!;
      const first = index.docFirst[d]!;
      const end = first + index.docRows[d]!;
      if (index.rowAlive[slot] !== 1 || index.docScope[d] !== this.scope || slot < first || slot >= end) {
        at += 1;
        continue;
      }
      let upper = below[last]!;
      let k = at;
      for (; k < length && slots[k]! < end; k++) {
        const tf = tfs[k]!;
        upper += weight * ((tf * (K1 + 1.0)) / (tf + K1 * (1 - B + (B * index.rowLen[slots[k]!]!) / average)));
      }
      if (!this.best.full || upper * (1 + SLACK) >= this.best.threshold * (1 - SLACK)) {
        term.at = at;
        if (this.mayEnter(first, end)) this.score(d, first, end);
      }
      at = k;
    }
  }

  /**
   * Whether the document in rows `[first, end)` could enter the best: its terms' parts in any of
   * its rows (whatever their field or locale), the weak terms sought from the strongest down and
   * given up on as soon as their bounds cannot lift it enough (cheap: most candidates stop here).
   */
  private mayEnter(first: number, end: number): boolean {
    if (!this.best.full) return true;
    const { index, terms } = this;
    const needed = this.best.threshold * (1 - SLACK);
    let upper = 0;
    for (let i = terms.length - 1; i >= 0; i--) {
      if (i < this.essential) {
        if ((upper + this.below[i + 1]!) * (1 + SLACK) < needed) return false;
        terms[i]!.at = terms[i]!.postings.seek(terms[i]!.at, first);
      }
      const term = terms[i]!;
      const { slots, tfs, length } = term.postings;
      for (let at = term.at; at < length; at++) {
        const slot = slots[at]!;
        if (slot >= end) break;
        if (slot < first) continue;
        const tf = tfs[at]!;
        upper += term.idf * ((tf * (K1 + 1.0)) / (tf + K1 * (1 - B + (B * index.rowLen[slot]!) / this.average)));
      }
    }
    return upper * (1 + SLACK) >= needed;
  }

  /** Scores one document (rows `[first, end)`) and keeps it if it is among the best so far. */
  private score(d: number, first: number, end: number): void {
    const { index, terms, parts, matched, width } = this;
    const rows = end - first;
    matched.fill(0, 0, rows);
    let rough = 0;
    // Essential terms first, then the others from the strongest down, giving up when even all
    // the rest could not lift the document to the weakest of the best.
    for (let i = terms.length - 1; i >= 0; i--) {
      if (i < this.essential && this.best.full && rough + this.below[i + 1]! < this.best.threshold * (1 - SLACK)) return;
      const term = terms[i]!;
      const postings = term.postings;
      term.at = postings.seek(term.at, first);
      for (let at = term.at; at < postings.length; at++) {
        const slot = postings.slots[at]!;
        if (slot >= end) break;
        if (this.fieldOk[index.rowField[slot]!] !== 1 || this.localeOk[index.rowLocale[slot]!] !== 1) continue;
        const tf = postings.tfs[at]!;
        const part = term.idf * ((tf * (K1 + 1.0)) / (tf + K1 * (1 - B + (B * index.rowLen[slot]!) / this.average)));
        const row = slot - first;
        if (matched[row] === 0) {
          matched[row] = 1;
          parts.fill(0, row * width, row * width + width);
        }
        parts[row * width + term.order] = part;
        rough += part;
      }
    }
    // The exact score: each row's parts added in the query's order (as bm25() does), rows in order.
    let total = 0;
    let any = false;
    for (let row = 0; row < rows; row++) {
      if (matched[row] === 0) continue;
      any = true;
      let sum = 0;
      for (let k = row * width; k < row * width + width; k++) sum += parts[k]!;
      total += sum;
    }
    if (!any || !this.best.offer(d, total)) return;
    if (this.best.full) while (this.essential < terms.length && this.below[this.essential + 1]! < this.best.threshold * (1 - SLACK)) this.essential += 1;
  }
}

/** The best `size` documents so far: a binary min-heap, the weakest (lowest score, then greatest key) on top. */
class Heap {
  private readonly docs: number[] = [];
  private readonly scores: number[] = [];

  constructor(
    readonly size: number,
    private readonly keys: readonly string[],
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
      .map((doc, i) => ({ key: this.keys[doc]!, score: this.scores[i]! }))
      .sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
}
