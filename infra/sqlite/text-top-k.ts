import type { Scored } from '../../projections/search-ports.js';
import { B, K1, PART_UNIT, idf, type TextMemoryIndex } from './text-memory-index.js';
import type { Postings } from './text-postings.js';
import { mayHold } from './text-impacts.js';
import { Heap } from './text-top-k-heap.js';
import { seedFromImpacts, SLACK } from './text-top-k-seed.js';

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
  /** Documents the seed scored (or found out of the collection) carry it in `index.marks.seen`. */
  private readonly stamp: number;

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
    this.best = new Heap(query.limit, index.docKey, index.docRowid);
    this.stamp = index.stamp();
  }

  run(): Scored[] {
    const { index, terms } = this;
    const exact = (d: number) => this.score(d, index.docFirst[d]!, index.docFirst[d]! + index.docRows[d]!, false);
    if (seedFromImpacts(index, terms, this.best, this.scope, this.stamp, exact)) return this.best.sorted();
    this.raiseEssential();
    const seen = index.marks.seen;
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
      if (index.rowAlive[slot] === 1 && seen[d] !== this.stamp && index.docScope[d] === this.scope && slot >= first && slot < end && this.mayEnter(first, end)) this.score(d, first, end, true);
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
    const { index, terms, below, best } = this;
    const last = terms.length - 1;
    const term = terms[last]!;
    const { slots, parts, length } = term.postings;
    const unit = term.idf * PART_UNIT * (1 + SLACK);
    const { rowDoc, rowAlive, docScope } = index;
    const seen = index.marks.seen;
    let needed = best.full ? (best.threshold * (1 - SLACK) - below[last]!) / unit : -1;
    for (let at = term.at; at < length && this.essential === last; ) {
      // The postings of this document's rows in a row, their parts' bound read with them.
      const slot = slots[at]!;
      const d = rowDoc[slot]!;
      let sum = parts[at]!;
      let k = at + 1;
      for (; k < length && rowDoc[slots[k]!] === d; k++) sum += parts[k]!;
      if (sum < needed) {
        at = k;
        continue;
      }
      // A removed row: the document's live rows, if any, come later.
      if (rowAlive[slot] !== 1) {
        at += 1;
        continue;
      }
      if (seen[d] !== this.stamp && docScope[d] === this.scope) {
        term.at = at;
        const first = index.docFirst[d]!;
        const end = first + index.docRows[d]!;
        if (this.mayEnter(first, end)) {
          this.score(d, first, end, true);
          if (best.full) needed = (best.threshold * (1 - SLACK) - below[last]!) / unit;
        }
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

  /**
   * Scores one document (rows `[first, end)`) and keeps it if it is among the best so far.
   * `walking`: the documents come in slot order and the terms' cursors move with them; otherwise
   * (the seed's documents, in any order) each term's rows are found by binary search.
   */
  private score(d: number, first: number, end: number, walking: boolean): void {
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
      let from: number;
      if (walking) from = term.at = postings.seek(term.at, first);
      // A term the document does not hold (its Bloom filter says so) is not sought.
      else if (postings.impacts && !mayHold(postings.impacts, d)) continue;
      else from = postings.find(first);
      for (let at = from; at < postings.length; at++) {
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
    if (any && this.best.offer(d, total)) this.raiseEssential();
  }

  /** Terms whose bounds together cannot lift a document to the weakest of the best are no longer essential. */
  private raiseEssential(): void {
    const { terms, below, best } = this;
    if (best.full) while (this.essential < terms.length && below[this.essential + 1]! < best.threshold * (1 - SLACK)) this.essential += 1;
  }
}
