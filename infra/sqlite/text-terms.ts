import { Postings } from './text-postings.js';

const isTokenChar = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
const lower = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c);

/**
 * The terms of the in-memory text index and their postings, found either by name or straight
 * from a slice of an ASCII text (docs/decisions/0200): an open-addressing table over the slice's
 * lower-cased characters, so that loading and indexing plain ASCII text makes no string per
 * token (at 100,000 resources that is 13 million of them). Terms stay once made (a term whose
 * rows are all gone keeps empty postings; compaction shrinks them).
 */
export class Terms {
  readonly byName = new Map<string, Postings>();
  private names: string[] = [];
  private postings: Postings[] = [];
  private slots = new Int32Array(1024).fill(-1);
  private hashes = new Int32Array(1024);

  get(name: string): Postings | undefined {
    return this.byName.get(name);
  }

  /** The term's postings, made (with room for `capacity`) if it is new. */
  named(name: string, capacity = 4): Postings {
    return this.byName.get(name) ?? this.slice(name, 0, name.length, capacity, true);
  }

  /**
   * Calls `each` with the postings of every token of an ASCII text (unicode61's tokens: runs of
   * letters and digits, lower-cased), in order; answers the number of tokens.
   */
  scan(text: string, each: (postings: Postings) => void): number {
    let count = 0;
    const n = text.length;
    for (let i = 0; i < n; ) {
      if (!isTokenChar(text.charCodeAt(i))) {
        i += 1;
        continue;
      }
      const start = i;
      while (i < n && isTokenChar(text.charCodeAt(i))) i += 1;
      each(this.slice(text, start, i, 4, false));
      count += 1;
    }
    return count;
  }

  private hashOf(text: string, start: number, end: number, folded: boolean): number {
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) h = Math.imul(h ^ (folded ? text.charCodeAt(i) : lower(text.charCodeAt(i))), 0x01000193);
    return h;
  }

  private same(name: string, text: string, start: number, end: number, folded: boolean): boolean {
    if (name.length !== end - start) return false;
    for (let i = start; i < end; i++) if (name.charCodeAt(i - start) !== (folded ? text.charCodeAt(i) : lower(text.charCodeAt(i)))) return false;
    return true;
  }

  /** The term spelled by `text[start, end)` (already folded, or ASCII to lower-case). */
  private slice(text: string, start: number, end: number, capacity: number, folded: boolean): Postings {
    const hash = this.hashOf(text, start, end, folded);
    const mask = this.slots.length - 1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const id = this.slots[at]!;
      if (id === -1) break;
      if (this.hashes[at] === hash && this.same(this.names[id]!, text, start, end, folded)) return this.postings[id]!;
    }
    const name = folded && start === 0 && end === text.length ? text : text.slice(start, end).toLowerCase();
    const postings = new Postings(capacity);
    this.names.push(name);
    this.postings.push(postings);
    this.byName.set(name, postings);
    this.place(this.names.length - 1, hash);
    if (this.names.length * 2 > this.slots.length) this.rehash();
    return postings;
  }

  private place(id: number, hash: number): void {
    const mask = this.slots.length - 1;
    let at = hash & mask;
    while (this.slots[at] !== -1) at = (at + 1) & mask;
    this.slots[at] = id;
    this.hashes[at] = hash;
  }

  private rehash(): void {
    const size = this.slots.length * 2;
    this.slots = new Int32Array(size).fill(-1);
    this.hashes = new Int32Array(size);
    this.names.forEach((name, id) => this.place(id, this.hashOf(name, 0, name.length, true)));
  }
}
