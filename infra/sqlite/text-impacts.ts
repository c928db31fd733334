/**
 * A term's documents in impact order (docs/decisions/0255): the documents that take the most
 * from the term, strongest first, each with that most (the sum over its rows of BM25's frequency
 * part at the average length `ref`, before the idf: what `Postings.bound` is the greatest of).
 * Only a prefix is kept; every document not in it takes at most `rest` from the term, and every
 * document in it at most its own value (a document re-indexed with more than `rest` drops the
 * prefix, see TextMemoryIndex.put). `complete`: the prefix holds every document of the term.
 * `members`: a Bloom filter of the term's documents (one hash, eight bits a document), so that a
 * search can tell that a document does not hold the term; documents indexed later are added.
 */
export type Impacts = {
  readonly docs: Int32Array;
  readonly values: Float64Array;
  readonly rest: number;
  readonly complete: boolean;
  readonly ref: number;
  readonly members: Uint8Array;
  readonly shift: number;
};

const bitOf = (d: number, shift: number): number => Math.imul(d, 0x9e3779b1) >>> shift;

/** Whether the document may hold the term (false: it does not). */
export const mayHold = (impacts: Impacts, d: number): boolean => {
  const bit = bitOf(d, impacts.shift);
  return (impacts.members[bit >>> 3]! & (1 << (bit & 7))) !== 0;
};

/** Records that the document holds the term. */
export const addMember = (impacts: Impacts, d: number): void => {
  const bit = bitOf(d, impacts.shift);
  impacts.members[bit >>> 3] = impacts.members[bit >>> 3]! | (1 << (bit & 7));
};

/** How many of a term's documents the prefix keeps: enough for a top k of the usual sizes to be decided within it (0255). */
export type PrefixSize = (documents: number) => number;

export const defaultPrefixSize: PrefixSize = (documents) => Math.min(documents, 512 + (documents >> 3));

/** The prefix of `count` documents' values (docs[i], values[i]): the `size` greatest, greatest first, ties by document. */
export function impactsFrom(docs: Int32Array, values: Float64Array, count: number, size: number, ref: number): Impacts {
  const keep = Math.min(size, count);
  let cut = -Infinity;
  if (keep < count) {
    const sorted = values.slice(0, count).sort();
    cut = sorted[count - keep]!;
  }
  // Those above the cut, then those at it until the prefix is full.
  const chosen: number[] = [];
  for (let i = 0; i < count; i++) if (values[i]! > cut) chosen.push(i);
  for (let i = 0; i < count && chosen.length < keep; i++) if (values[i] === cut) chosen.push(i);
  chosen.sort((a, b) => values[b]! - values[a]! || docs[a]! - docs[b]!);
  let rest = 0;
  if (keep < count) {
    const taken = new Uint8Array(count);
    for (const i of chosen) taken[i] = 1;
    for (let i = 0; i < count; i++) if (taken[i] === 0 && values[i]! > rest) rest = values[i]!;
  }
  // Eight bits a document, at least 64 bytes, a power of two.
  let bits = 512;
  while (bits < count * 8) bits *= 2;
  const impacts: Impacts = {
    docs: Int32Array.from(chosen, (i) => docs[i]!),
    values: Float64Array.from(chosen, (i) => values[i]!),
    rest,
    complete: keep === count,
    ref,
    members: new Uint8Array(bits / 8),
    shift: 32 - Math.log2(bits),
  };
  for (let i = 0; i < count; i++) addMember(impacts, docs[i]!);
  return impacts;
}
