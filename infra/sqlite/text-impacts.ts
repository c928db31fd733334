/**
 * A term's documents in impact order (docs/decisions/0255): the documents that take the most
 * from the term, strongest first, each with that most (the sum over its rows of BM25's frequency
 * part at the average length `ref`, before the idf: what `Postings.bound` is the greatest of).
 * Only a prefix is kept; every document not in it takes at most `rest` from the term, and every
 * document in it at most its own value (a document re-indexed with more than `rest` drops the
 * prefix, see TextMemoryIndex.put). `complete`: the prefix holds every document of the term.
 * `members`: a Bloom filter of the term's documents (one hash, eight bits a document), or for a
 * term of many documents one bit per document of the index (`shift` BY_DOCUMENT), so that a
 * search can tell that a document does not hold the term; documents indexed later are added.
 */
export type Impacts = {
  readonly docs: Int32Array;
  readonly values: Float32Array;
  readonly rest: number;
  readonly complete: boolean;
  readonly ref: number;
  readonly members: Uint8Array;
  readonly shift: number;
};

/** `shift` of members kept one bit a document of the index, by its number (no hash): a Bloom filter's is 1 or more. */
const BY_DOCUMENT = 0;

const bitOf = (d: number, shift: number): number => (shift === BY_DOCUMENT ? d : Math.imul(d, 0x9e3779b1) >>> shift);

/** Whether the document may hold the term (false: it does not). A document past the members' bits (indexed later) may. */
export const mayHold = (impacts: Impacts, d: number): boolean => {
  const bit = bitOf(d, impacts.shift);
  const members = impacts.members;
  return bit >>> 3 >= members.length || (members[bit >>> 3]! & (1 << (bit & 7))) !== 0;
};

/** Records that the document holds the term. */
export const addMember = (impacts: Impacts, d: number): void => {
  const bit = bitOf(d, impacts.shift);
  if (bit >>> 3 >= impacts.members.length) return;
  impacts.members[bit >>> 3] = impacts.members[bit >>> 3]! | (1 << (bit & 7));
};

/** How many of a term's documents the prefix keeps: enough for a top k of the usual sizes to be decided within it (0255). */
export type PrefixSize = (documents: number) => number;

export const defaultPrefixSize: PrefixSize = (documents) => Math.min(documents, 512 + (documents >> 3));

/** The `k`-th smallest of `a` (k from 0), found in place by quickselect: the array is reordered. */
function select(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    // Median of three as the pivot.
    const x = a[lo]!;
    const y = a[mid]!;
    const z = a[hi]!;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}

/**
 * The prefix of `count` documents' values (docs[i], values[i]): the `size` greatest, greatest
 * first, ties by document. `indexed`: how many documents the index numbers (0: not known, members
 * by a Bloom filter). Values are kept as 32-bit floats rounded up, so that each still
 * bounds what it stands for.
 */
export function impactsFrom(docs: Int32Array, values: Float64Array, count: number, size: number, ref: number, indexed = 0): Impacts {
  const keep = Math.min(size, count);
  const cut = keep < count ? select(values.slice(0, count), count - keep) : -Infinity;
  // Those above the cut, then those at it until the prefix is full; the greatest of the others is the rest.
  const chosen: number[] = [];
  for (let i = 0; i < count; i++) if (values[i]! > cut) chosen.push(i);
  let rest = 0;
  for (let i = 0; i < count; i++) {
    if (values[i]! !== cut) {
      if (values[i]! < cut && values[i]! > rest) rest = values[i]!;
    } else if (chosen.length < keep) chosen.push(i);
    else rest = cut;
  }
  // Greatest first, by one native sort of numbers: a value's 32-bit float (rounded up) as an
  // unsigned integer orders as the value does; the document's place comes below it.
  const bits32 = new Uint32Array(new Float32Array(1).buffer);
  const floats = new Float32Array(bits32.buffer);
  const keys = new Float64Array(chosen.length);
  chosen.forEach((i, at) => {
    floats[0] = upward(values[i]!);
    keys[at] = bits32[0]! * 2 ** 21 + (2 ** 21 - 1 - at);
  });
  keys.sort();
  const prefixDocs = new Int32Array(chosen.length);
  const prefixValues = new Float32Array(chosen.length);
  for (let at = 0; at < keys.length; at++) {
    const i = chosen[2 ** 21 - 1 - (keys[keys.length - 1 - at]! % 2 ** 21)]!;
    prefixDocs[at] = docs[i]!;
    prefixValues[at] = upward(values[i]!);
  }
  // Eight bits a document, at least 64 bytes, a power of two; or, when that is more than one bit
  // for each document of the index (a term of about a sixth of them or more), one bit a document
  // by its number: exact, and 16 KB at 100,000 documents where the filter was up to 128 KB read
  // at random, a cache miss a check (docs/decisions/0325).
  let bits = 512;
  while (bits < count * 8) bits *= 2;
  // A quarter more than the documents numbered now: those indexed later are told apart too, until
  // the prefix is made again (past the bits, a document may hold the term).
  const byDocument = Math.ceil((indexed + (indexed >> 2) + 64) / 8) * 8;
  const exact = indexed > 0 && byDocument < bits;
  const impacts: Impacts = {
    docs: prefixDocs,
    values: prefixValues,
    rest: upward(rest),
    complete: keep === count,
    ref,
    members: new Uint8Array((exact ? byDocument : bits) / 8),
    shift: exact ? BY_DOCUMENT : 32 - Math.log2(bits),
  };
  for (let i = 0; i < count; i++) addMember(impacts, docs[i]!);
  return impacts;
}

/** The 32-bit float at or above a value. */
const upward = (value: number): number => {
  const near = Math.fround(value);
  return near >= value ? near : Math.fround(value * (1 + 2 ** -23));
};
