/**
 * `find_text.threshold` (typo tolerance, 0..1; docs/decisions/0170): how many single-character
 * edits (insertions, deletions, substitutions) a word of the document may differ from a query word
 * by. A word of n characters tolerates floor((1 - threshold) * n) edits, at most MAX_EDITS: 1 (or
 * no threshold) is exact matching, 0.8 forgives one typo in five characters.
 */
export const MAX_EDITS = 2;

/** Most document words one query word may expand to (the closest first). */
export const MAX_EXPANSIONS = 50;

export function maxEdits(word: string, threshold: number | undefined): number {
  if (threshold === undefined || threshold >= 1) return 0;
  const length = [...word].length;
  // The epsilon keeps 0.2 * 5 at 1 despite binary floating point (1 - 0.8 is 0.19999...).
  return Math.min(MAX_EDITS, Math.floor((1 - Math.max(0, threshold)) * length + 1e-9));
}

/** A word as the full-text indexes store it: lower case, diacritics (combining marks) removed. */
export const foldTerm = (word: string): string => word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
