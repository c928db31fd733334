import { mayHold, type Impacts } from './text-impacts.js';
import type { TextMemoryIndex } from './text-memory-index.js';
import type { Postings } from './text-postings.js';
import type { Heap } from './text-top-k-heap.js';

/** Bounds are compared with this slack, so that rounding never prunes a document that belongs in the answer. */
export const SLACK = 1e-9;

/** What the seed needs of a query term: its postings and idf. */
export type SeedTerm = { readonly postings: Postings; readonly idf: number };

/** The most terms a seed bounds (one bit each); a query of more is walked over its postings only. */
const MAX_TERMS = 30;

/** How many of the strongest documents are scored first, for a first threshold. */
const SEED_SCORED = (size: number): number => 2 * size;

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

  /** Reads every term's prefix to its end, adding to the bounds of the documents already read (`bounded` holds `stamp`). */
  readOn(bounded: Int32Array, seen: Int32Array, known: Float64Array, terms: Int32Array, stamp: number): void {
    const { lists, weights, pos, front } = this;
    for (let t = 0; t < lists.length; t++) {
      const { docs, values, rest } = lists[t]!;
      const weight = weights[t]!;
      const bit = 1 << t;
      for (let at = pos[t]!; at < docs.length; at++) {
        const d = docs[at]!;
        if (bounded[d] !== stamp || seen[d] === stamp) continue;
        known[d] = known[d]! + weight * values[at]!;
        terms[d] = terms[d]! | bit;
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
 * 1. the strongest documents are scored exactly (twice `best.size` of them): a first threshold;
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
  const { seen: docSeen, bounded: docBounded, known: docKnown, terms: docTerms } = marks;
  const out = (d: number): boolean => {
    if (docRows[d] !== 0 && docScope[d] === scope) return false;
    docSeen[d] = stamp;
    return true;
  };
  // 1. A first threshold: the strongest documents scored exactly.
  const firsts = SEED_SCORED(best.size);
  for (let scored = 0; scored < firsts; ) {
    fronts.look();
    if (best.full && fronts.sum < best.threshold * (1 - SLACK)) return true;
    if (fronts.pick < 0) return fronts.complete;
    const d = fronts.next();
    if (docSeen[d] === stamp || out(d)) continue;
    docSeen[d] = stamp;
    exact(d);
    scored += 1;
  }
  // 2. Bounds of the documents read on: what each takes from the terms it was read in; the terms
  // it is known not to hold (their Bloom filters) count as read. One read in every term has its
  // bound and is scored at once if that reaches the best (a higher threshold stops the reading sooner).
  const every = (1 << terms.length) - 1;
  const { lists } = fronts;
  for (;;) {
    fronts.look();
    if ((best.full && fronts.sum < best.threshold * (1 - SLACK)) || fronts.pick < 0) break;
    const term = fronts.pick;
    const d = fronts.next();
    if (docSeen[d] === stamp) continue;
    let known: number;
    if (docBounded[d] !== stamp) {
      docBounded[d] = stamp;
      docKnown[d] = 0;
      known = 0;
      for (let t = 0; t < lists.length; t++) if (t !== term && !mayHold(lists[t]!, d)) known |= 1 << t;
      marks.push(d);
    } else known = docTerms[d]!;
    known |= 1 << term;
    docTerms[d] = known;
    const sum = docKnown[d]! + fronts.taken;
    docKnown[d] = sum;
    if (known === every && (!best.full || sum >= best.threshold * (1 - SLACK)) && !out(d)) {
      docSeen[d] = stamp;
      exact(d);
    }
  }
  const decided = (best.full && fronts.sum < best.threshold * (1 - SLACK)) || fronts.complete;
  // 2b. The rest of each prefix, for the documents already read only: their bounds tighten.
  if (decided) fronts.readOn(docBounded, docSeen, docKnown, docTerms, stamp);
  // 3. The documents whose bound reaches the threshold, strongest bound first.
  // The read list is compacted in place to the documents whose bound reaches the threshold.
  const { front } = fronts;
  const { read, bounds, count } = marks;
  let needed = best.full ? best.threshold * (1 - SLACK) : -Infinity;
  let kept = 0;
  for (let i = 0; i < count; i++) {
    const d = read[i]!;
    let bound = docKnown[d]!;
    const known = docTerms[d]!;
    for (let t = 0; t < front.length; t++) if ((known & (1 << t)) === 0) bound += front[t]!;
    if (bound < needed) continue;
    read[kept] = d;
    bounds[kept++] = bound;
  }
  const order = Int32Array.from({ length: kept }, (_, i) => i).sort((a, b) => bounds[b]! - bounds[a]!);
  for (const i of order) {
    needed = best.full ? best.threshold * (1 - SLACK) : -Infinity;
    if (bounds[i]! < needed) break;
    const d = read[i]!;
    if (docSeen[d] === stamp || out(d)) continue;
    docSeen[d] = stamp;
    exact(d);
  }
  return decided;
}
