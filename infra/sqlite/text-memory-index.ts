import { addMember, defaultPrefixSize, impactsFrom, type Impacts, type PrefixSize } from './text-impacts.js';
import type { Postings } from './text-postings.js';
import { Terms } from './text-terms.js';
import { SeedMarks } from './text-seed-marks.js';

/** BM25's parameters as FTS5's bm25() fixes them (fts5_aux.c). */
export const K1 = 1.2;
export const B = 0.75;

/** One FTS row of a document: its field, locale and tokens (text-tokens.ts), or its text when it is plain ASCII (split as it is read). */
export type TokenRow =
  | { readonly field: string; readonly locale: string; readonly tokens: readonly string[] }
  | { readonly field: string; readonly locale: string; readonly ascii: string };

/** A document's rows as they are added: which collection it is in, its key, its rows. */
export type TokenDoc = { readonly doc: number; readonly scope: string; readonly key: string; readonly rows: readonly TokenRow[] };

const grown = (array: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> => {
  if (size <= array.length) return array;
  const next = new Int32Array(Math.max(size, Math.ceil(array.length * 1.5), 16));
  next.set(array);
  return next;
};

/** Interned strings: a small integer per distinct value. */
class Names {
  private readonly ids = new Map<string, number>();
  id(name: string): number {
    let id = this.ids.get(name);
    if (id === undefined) this.ids.set(name, (id = this.ids.size));
    return id;
  }
  find(name: string): number | undefined {
    return this.ids.get(name);
  }
  get size(): number {
    return this.ids.size;
  }
}

/**
 * The rows of the FTS5 table `search_text` in memory (docs/decisions/0200): per row its document,
 * field, locale and length in tokens; per term its postings. A document's live rows are
 * consecutive slots (they are added together); removing a document marks its rows dead and
 * takes them out of the counts BM25 reads (rows, tokens, rows per term), as FTS5 does.
 */
export class TextMemoryIndex {
  private readonly table = new Terms();
  readonly fields = new Names();
  readonly locales = new Names();
  readonly scopes = new Names();
  /** Rows: document slot, length in tokens, field id, locale id, alive (1) or removed (0). */
  rowDoc: Int32Array<ArrayBuffer> = new Int32Array(16);
  rowLen: Int32Array<ArrayBuffer> = new Int32Array(16);
  rowField: Int32Array<ArrayBuffer> = new Int32Array(16);
  rowLocale: Int32Array<ArrayBuffer> = new Int32Array(16);
  rowAlive: Int32Array<ArrayBuffer> = new Int32Array(16);
  slots = 0;
  /** Documents: key, collection (scope id), first live row slot and number of live rows. */
  private readonly docSlots = new Map<number, number>();
  docKey: string[] = [];
  /** Each document's number as it was put (the delivery index's `docs.rowid`). */
  docRowid: Float64Array<ArrayBuffer> = new Float64Array(16);
  docScope: Int32Array<ArrayBuffer> = new Int32Array(16);
  docFirst: Int32Array<ArrayBuffer> = new Int32Array(16);
  docRows: Int32Array<ArrayBuffer> = new Int32Array(16);
  /** FTS5's counts: live rows and their tokens. */
  rows = 0;
  tokens = 0;
  /** The most live rows one document has had (sizes the search's scratch space). */
  maxDocRows = 1;
  private dead = 0;
  private sortedVocabulary: string[] | null = null;
  /** Scratch space of the searches (text-seed-marks.ts). */
  readonly marks = new SeedMarks();

  /** `prefixSize`: how many of a term's documents its impact-ordered prefix keeps (text-impacts.ts). */
  constructor(private readonly prefixSize: PrefixSize = defaultPrefixSize) {}

  /** A number no document's marks hold yet: one search marks the documents it has looked at with it. */
  stamp(): number {
    return this.marks.begin(this.docKey.length);
  }

  /** Postings by term (terms whose rows are all gone have none live: `df` 0). */
  get terms(): ReadonlyMap<string, Postings> {
    return this.table.byName;
  }

  get averageLength(): number {
    return this.tokens / this.rows;
  }

  /** Makes room for a term's postings before a load (FTS5 counts its rows): no growing and copying. */
  reserve(term: string, rows: number): void {
    this.table.named(term, Math.max(1, rows));
  }

  /** Replaces a document's rows (none: removes it). */
  put(doc: TokenDoc, removed?: readonly (readonly string[])[]): void {
    this.remove(doc.doc, removed);
    if (doc.rows.length === 0) return;
    let d = this.docSlots.get(doc.doc);
    if (d === undefined) {
      d = this.docKey.length;
      this.docSlots.set(doc.doc, d);
      this.docKey.push(doc.key);
      this.docScope = grown(this.docScope, d + 1);
      this.docFirst = grown(this.docFirst, d + 1);
      this.docRows = grown(this.docRows, d + 1);
      if (d >= this.docRowid.length) {
        const next = new Float64Array(Math.ceil(this.docRowid.length * 1.5) + 1);
        next.set(this.docRowid);
        this.docRowid = next;
      }
      this.docRowid[d] = doc.doc;
    }
    this.docKey[d] = doc.key;
    this.docScope[d] = this.scopes.id(doc.scope);
    this.docFirst[d] = this.slots;
    this.docRows[d] = doc.rows.length;
    this.maxDocRows = Math.max(this.maxDocRows, doc.rows.length);
    const touched = new Map<Postings, number>();
    for (const row of doc.rows) this.addRow(d, row, touched);
    // A term's bound covers this document too (at the average length it was computed for).
    // A document stronger than the rest of a term's impact prefix must be in it: the prefix is made again.
    for (const [postings, sum] of touched) {
      postings.bound = Math.max(postings.bound, sum);
      if (postings.impacts && sum > postings.impacts.rest) postings.impacts = null;
      else if (postings.impacts) addMember(postings.impacts, d);
    }
  }

  private addRow(d: number, row: TokenRow, touched: Map<Postings, number>): void {
    const slot = this.slots++;
    for (const name of ['rowDoc', 'rowLen', 'rowField', 'rowLocale', 'rowAlive'] as const) this[name] = grown(this[name], slot + 1);
    this.rowDoc[slot] = d;
    this.rowField[slot] = this.fields.id(row.field);
    this.rowLocale[slot] = this.locales.id(row.locale);
    this.rowAlive[slot] = 1;
    // A term's last posting is this row's once the row has met it: its frequency goes up in place.
    const met: Postings[] = [];
    const visit = (postings: Postings): void => {
      const last = postings.length - 1;
      if (last >= 0 && postings.slots[last] === slot) return postings.count(last);
      postings.push(slot, 1);
      if (postings.df++ === 0) this.sortedVocabulary = null;
      met.push(postings);
    };
    let len: number;
    if ('ascii' in row) len = this.table.scan(row.ascii, visit);
    else {
      for (const token of row.tokens) visit(this.table.named(token));
      len = row.tokens.length;
    }
    this.rowLen[slot] = len;
    this.rows += 1;
    this.tokens += len;
    for (const postings of met) {
      if (postings.ref === 0) continue;
      const part = frequencyPart(postings.tfs[postings.length - 1]!, len, postings.ref);
      postings.parts[postings.length - 1] = quantized(part);
      touched.set(postings, (touched.get(postings) ?? 0) + part);
    }
  }

  /**
   * Takes a document's rows out. `removed`: the tokens of its live rows, in any order, to count
   * them out of their terms; without them the terms are found in the postings (a slow pass).
   */
  remove(doc: number, removed?: readonly (readonly string[])[]): void {
    const d = this.docSlots.get(doc);
    if (d === undefined || this.docRows[d] === 0) return;
    const first = this.docFirst[d]!;
    const count = this.docRows[d]!;
    const known = removed !== undefined && removed.length === count;
    for (let i = 0; i < count; i++) {
      const slot = first + i;
      this.rowAlive[slot] = 0;
      this.rows -= 1;
      this.tokens -= this.rowLen[slot]!;
      this.dead += 1;
      this.countOut(known ? new Set(removed[i]) : this.termsOfSlot(slot));
    }
    this.docRows[d] = 0;
  }

  private countOut(terms: Iterable<string>): void {
    for (const term of terms) {
      const postings = this.terms.get(term);
      if (!postings) continue;
      postings.df -= 1;
      if (postings.df === 0) this.sortedVocabulary = null;
    }
  }

  /** The terms of a row, found in the postings (slow: a whole pass; for rows whose tokens are not known). */
  private termsOfSlot(slot: number): string[] {
    const found: string[] = [];
    for (const [term, postings] of this.terms) {
      const at = postings.seek(0, slot);
      if (at < postings.length && postings.slots[at] === slot) found.push(term);
    }
    return found;
  }

  /** Whether removed rows are many enough to compact (more than the live ones, and at least 4,096). */
  get wantsCompaction(): boolean {
    return this.dead > 4096 && this.dead > this.rows;
  }

  /** Drops removed rows: live rows are renumbered in order, postings filtered. */
  compact(): void {
    const renumber = new Int32Array(this.slots).fill(-1);
    let next = 0;
    for (let slot = 0; slot < this.slots; slot++) {
      if (this.rowAlive[slot] !== 1) continue;
      renumber[slot] = next;
      for (const name of ['rowDoc', 'rowLen', 'rowField', 'rowLocale', 'rowAlive'] as const) this[name][next] = this[name][slot]!;
      next += 1;
    }
    for (let d = 0; d < this.docKey.length; d++) if (this.docRows[d]! > 0) this.docFirst[d] = renumber[this.docFirst[d]!]!;
    for (const postings of this.terms.values()) postings.compact(renumber);
    this.slots = next;
    this.dead = 0;
  }

  /** After a bulk load: no spare capacity in the postings, no term reserved for nothing. */
  trim(): void {
    for (const postings of this.terms.values()) postings.trim();
    this.sortedVocabulary = null;
  }

  /** Terms with at least one live row, in code-unit order, for typo tolerance. */
  vocabulary(): readonly string[] {
    this.sortedVocabulary ??= [...this.terms].filter(([, postings]) => postings.df > 0).map(([term]) => term).sort();
    return this.sortedVocabulary;
  }

  /** The vocabulary's terms in `[from, to)`. */
  termsBetween(from: string, to: string): string[] {
    const vocabulary = this.vocabulary();
    const start = lowerBound(vocabulary, from);
    const end = lowerBound(vocabulary, to);
    return vocabulary.slice(start, end);
  }

  /**
   * The most a document takes from the term before the idf, at the current average row length:
   * computed over the postings when the average has grown past the one it was computed for.
   */
  boundOf(postings: Postings): number {
    const average = this.averageLength;
    if (postings.ref < average) this.measure(postings, average * 1.05);
    return postings.bound;
  }

  /** The term's documents in impact order (text-impacts.ts), at the average length of its bound: made when missing or stale. */
  impactsOf(postings: Postings): Impacts {
    this.boundOf(postings);
    if (!postings.impacts || postings.impacts.ref !== postings.ref) this.measure(postings, postings.ref);
    return postings.impacts!;
  }

  private scratchDocs = new Int32Array(0);
  private scratchValues = new Float64Array(0);

  /** One pass over a term's postings at the average length `ref`: each posting's part, each live document's sum, their greatest, the impact prefix. */
  private measure(postings: Postings, ref: number): void {
    if (this.scratchDocs.length < postings.length) {
      this.scratchDocs = new Int32Array(postings.length);
      this.scratchValues = new Float64Array(postings.length);
    }
    const { slots, tfs, parts } = postings;
    const { rowLen, rowAlive, rowDoc } = this;
    const docs = this.scratchDocs;
    const values = this.scratchValues;
    let count = 0;
    let doc = -1;
    let bound = 0;
    for (let i = 0; i < postings.length; i++) {
      const slot = slots[i]!;
      const part = frequencyPart(tfs[i]!, rowLen[slot]!, ref);
      parts[i] = quantized(part);
      if (rowAlive[slot] !== 1) continue;
      const d = rowDoc[slot]!;
      if (d !== doc) {
        doc = d;
        docs[count] = d;
        values[count++] = 0;
      }
      const sum = values[count - 1]! + part;
      values[count - 1] = sum;
      if (sum > bound) bound = sum;
    }
    postings.bound = bound;
    postings.ref = ref;
    postings.impacts = impactsFrom(docs, values, count, this.prefixSize(count), ref, this.docKey.length);
  }
}

/** BM25's frequency part of a row, as fts5_aux.c computes it: it grows with the average length. */
export const frequencyPart = (tf: number, len: number, average: number): number => (tf * (K1 + 1.0)) / (tf + K1 * (1 - B + (B * len) / average));

/** A frequency part's 255ths of K1 + 1 (its greatest value), rounded up: `PART_UNIT` times it is at least the part. */
export const PART_UNIT = (K1 + 1) / 255;
export const quantized = (part: number): number => Math.min(255, Math.ceil((part / PART_UNIT) * (1 + 1e-12)));

/** FTS5's idf: log((N - n + 0.5) / (n + 0.5)), 1e-6 when that is not positive. */
export function idf(rows: number, hits: number): number {
  const value = Math.log((rows - hits + 0.5) / (hits + 0.5));
  return value <= 0 ? 1e-6 : value;
}

function lowerBound(sorted: readonly string[], value: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
