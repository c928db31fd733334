import { mayHold, type Impacts } from './text-impacts.js';
import type { TextMemoryIndex } from './text-memory-index.js';
import type { Postings } from './text-postings.js';
import type { Heap } from './text-top-k-heap.js';
import { DONE, type SeedMarks } from './text-seed-marks.js';

/** Bounds are compared with this slack, so that rounding never prunes a document that belongs in the answer. */
export const SLACK = 1e-9;

/** What the seed needs of a query term: its postings and idf. */
export type SeedTerm = { readonly postings: Postings; readonly idf: number };

/** The most terms a seed bounds (one bit each, below DONE); a query of more is walked over its postings only. */
const MAX_TERMS = 30;

/** How many documents are scored first, for a first threshold. */
const SEED_SCORED = (size: number): number => 2 * size;

/** How many documents are read first (their bounds only), the strongest bounds among them scored for the first threshold. */
const READ_FIRST = (size: number): number => 8 * size;

/**
 * The terms' impact-ordered prefixes (text-impacts.ts) as they are read, strongest first from the
 * term whose next document could add the most (the threshold algorithm's order,
 * docs/decisions/0255): where each term is, and what its next document takes at most.
 */
class Fronts {
  readonly lists: Impacts[];
  readonly weights: Float64Array;
  readonly pos: Int32Array;
  /** What each term's next document takes at most (weighted): every document not read yet takes at most this. */
  readonly front: Float64Array;
  sum = 0;
  pick = -1;

  constructor(index: TextMemoryIndex, terms: readonly SeedTerm[]) {
    this.lists = terms.map((t) => index.impactsOf(t.postings));
    this.weights = Float64Array.from(terms, (t) => t.idf * (1 + SLACK));
    this.pos = new Int32Array(terms.length);
    this.front = Float64Array.from(this.lists, (list, i) => this.weights[i]! * (list.docs.length > 0 ? list.values[0]! : list.rest));
  }

  /** Sums the fronts and picks the term with the greatest one still to read (-1: all read). */
  look(): void {
    const { front, pos, lists } = this;
    let sum = 0;
    let pick = -1;
    for (let i = 0; i < front.length; i++) {
      sum += front[i]!;
      if (pos[i]! < lists[i]!.docs.length && (pick < 0 || front[i]! > front[pick]!)) pick = i;
    }
    this.sum = sum;
    this.pick = pick;
  }

  /** Reads the picked term's next document: its number; `taken` is what it takes (weighted). */
  taken = 0;
  next(): number {
    const i = this.pick;
    const list = this.lists[i]!;
    const at = this.pos[i]!++;
    this.taken = this.front[i]!;
    this.front[i] = this.weights[i]! * (at + 1 < list.docs.length ? list.values[at + 1]! : list.rest);
    return list.docs[at]!;
  }

  /** Reads every term's prefix to its end, adding to the bounds of the documents already read (in `marks`, not DONE). */
  readOn(marks: SeedMarks): void {
    const { lists, weights, pos, front } = this;
    const { known, terms } = marks;
    for (let t = 0; t < lists.length; t++) {
      const { docs, values, rest } = lists[t]!;
      const weight = weights[t]!;
      const bit = 1 << t;
      for (let at = pos[t]!; at < docs.length; at++) {
        const s = marks.find(docs[at]!);
        if (s < 0 || (terms[s]! & DONE) !== 0) continue;
        known[s] = known[s]! + weight * values[at]!;
        terms[s] = terms[s]! | bit;
      }
      pos[t] = docs.length;
      front[t] = weight * rest;
    }
  }

  get complete(): boolean {
    return this.lists.every((list) => list.complete);
  }
}

/**
 * Fills `best` from the terms' impact-ordered prefixes (docs/decisions/0255), in three steps:
 * 1. a first threshold: the first documents read (eight times `best.size` reads) gather their
 *    bounds, and the strongest bounds among them are scored exactly (twice `best.size` of them);
 * 2. reading on in the same order, each document's bound is only gathered (what it takes from the
 *    terms it was read in, plus the fronts of the others), until the fronts together cannot reach
 *    the threshold: no document not read can enter then;
 * 3. the documents read are scored exactly in the order of their bounds, as long as their bound
 *    reaches the weakest of the best.
 * Answers whether the best are decided. If not (a prefix ran out first, or too many terms), every
 * document scored carries `stamp` in `index.marks.seen` and the caller walks the postings for the rest.
 */
export function seedFromImpacts(index: TextMemoryIndex, terms: readonly SeedTerm[], best: Heap, scope: number, stamp: number, exact: (d: number) => void): boolean {
  if (terms.length > MAX_TERMS) return false;
  const fronts = new Fronts(index, terms);
  const { docRows, docScope, marks } = index;
  const docSeen = marks.seen;
  // Scores the document in slot `s` unless it is out of the collection; either way it is DONE, and
  // marked in `seen` for the walk that may follow.
  const score = (s: number, d: number): boolean => {
    marks.terms[s] = marks.terms[s]! | DONE;
    docSeen[d] = stamp;
    if (docRows[d] === 0 || docScope[d] !== scope) return false;
    exact(d);
    return true;
  };
  const every = (1 << terms.length) - 1;
  const { lists } = fronts;
  // 1. A first threshold: the first documents read only gather their bounds, as in step 2 (the
  // terms they do not hold, by the Bloom filters, count as read), and the strongest bounds among
  // them are scored exactly: documents that take much from several terms come first, not the
  // ones strongest in a single term (docs/decisions/0322).
  for (let reads = READ_FIRST(best.size); reads > 0; reads--) {
    fronts.look();
    if (fronts.pick < 0) break;
    const term = fronts.pick;
    const d = fronts.next();
    const s = marks.slot(d);
    let known = marks.terms[s]!;
    if (marks.added) for (let t = 0; t < lists.length; t++) if (t !== term && !mayHold(lists[t]!, d)) known |= 1 << t;
    marks.terms[s] = known | (1 << term);
    marks.known[s] = marks.known[s]! + fronts.taken;
  }
  {
    const { read, bounds, count } = marks;
    const { front } = fronts;
    for (let i = 0; i < count; i++) {
      const s = read[i]!;
      const known = marks.terms[s]!;
      let bound = marks.known[s]!;
      for (let t = 0; t < front.length; t++) if ((known & (1 << t)) === 0) bound += front[t]!;
      bounds[i] = bound;
    }
    const order = strongestFirst(bounds, count);
    const firsts = SEED_SCORED(best.size);
    for (let i = 0, scored = 0; i < count && scored < firsts; i++) {
      const s = read[order[i]!]!;
      if (score(s, marks.docOf(s))) scored += 1;
    }
  }
  // 2. Bounds of the documents read on: what each takes from the terms it was read in; the terms
  // it is known not to hold (their Bloom filters) count as read. One read in every term has its
  // bound and is scored at once if that reaches the best (a higher threshold stops the reading sooner).
  for (;;) {
    fronts.look();
    if ((best.full && fronts.sum < best.threshold * (1 - SLACK)) || fronts.pick < 0) break;
    const term = fronts.pick;
    const d = fronts.next();
    const s = marks.slot(d);
    let known = marks.terms[s]!;
    if ((known & DONE) !== 0) continue;
    if (marks.added) for (let t = 0; t < lists.length; t++) if (t !== term && !mayHold(lists[t]!, d)) known |= 1 << t;
    known |= 1 << term;
    marks.terms[s] = known;
    const sum = marks.known[s]! + fronts.taken;
    marks.known[s] = sum;
    if (known === every && (!best.full || sum >= best.threshold * (1 - SLACK))) score(s, d);
  }
  const decided = (best.full && fronts.sum < best.threshold * (1 - SLACK)) || fronts.complete;
  // 2b. The rest of each prefix, for the documents already read only: their bounds tighten.
  if (decided) fronts.readOn(marks);
  // 3. The documents whose bound reaches the threshold, strongest bound first.
  // The read list is compacted in place to the slots whose bound reaches the threshold.
  const { front } = fronts;
  const { read, bounds, count } = marks;
  let needed = best.full ? best.threshold * (1 - SLACK) : -Infinity;
  let kept = 0;
  for (let i = 0; i < count; i++) {
    const s = read[i]!;
    const known = marks.terms[s]!;
    if ((known & DONE) !== 0) continue;
    let bound = marks.known[s]!;
    for (let t = 0; t < front.length; t++) if ((known & (1 << t)) === 0) bound += front[t]!;
    if (bound < needed) continue;
    read[kept] = s;
    bounds[kept++] = bound;
  }
  const order = strongestFirst(bounds, kept);
  for (const i of order) {
    needed = best.full ? best.threshold * (1 - SLACK) : -Infinity;
    if (bounds[i]! < needed) break;
    const s = read[i]!;
    if ((marks.terms[s]! & DONE) === 0) score(s, marks.docOf(s));
  }
  return decided;
}

/** Up to this many, an insertion sort (no comparator called from the native sort); more: the native sort. */
const FEW = 64;

/** The places `0..count-1` ordered by `bounds` from the greatest down, equal bounds in place order. */
export function strongestFirst(bounds: Float64Array, count: number): Int32Array {
  const order = new Int32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  if (count > FEW) return order.sort((a, b) => bounds[b]! - bounds[a]! || a - b);
  for (let i = 1; i < count; i++) {
    const at = order[i]!;
    const bound = bounds[at]!;
    let j = i - 1;
    for (; j >= 0 && bounds[order[j]!]! < bound; j--) order[j + 1] = order[j]!;
    order[j + 1] = at;
  }
  return order;
}
