/**
 * `find_text.threshold` (typo tolerance, 0..1; docs/decisions/0170): how many single-character
 * edits (insertions, deletions, substitutions) a word of the document may differ from a query word
 * by. A word of n characters tolerates floor((1 - threshold) * n) edits, at most MAX_EDITS: 1 (or
 * no threshold) is exact matching, 0.8 forgives one typo in five characters.
 */
export const MAX_EDITS = 2;

/** Most document words one query word may expand to (the closest first). */
export const MAX_EXPANSIONS = 50;

/** Most document words a whole query may expand to (Lucene refuses a query of more than 1,024 clauses). */
export const MAX_TOTAL_EXPANSIONS = 1000;

/** The expansions each word of a query of `words` words may have: MAX_EXPANSIONS, less for long queries. */
export const expansionsPerWord = (words: number): number => Math.max(1, Math.min(MAX_EXPANSIONS, Math.floor(MAX_TOTAL_EXPANSIONS / Math.max(1, words))));

export function maxEdits(word: string, threshold: number | undefined): number {
  if (threshold === undefined || threshold >= 1) return 0;
  const length = [...word].length;
  // The epsilon keeps 0.2 * 5 at 1 despite binary floating point (1 - 0.8 is 0.19999...).
  return Math.min(MAX_EDITS, Math.floor((1 - Math.max(0, threshold)) * length + 1e-9));
}

/** A word as the full-text indexes store it: lower case, diacritics (combining marks) removed. */
export const foldTerm = (word: string): string => word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
