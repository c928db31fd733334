import { distance } from 'fastest-levenshtein';
import { foldTerm, maxEdits } from '../../projections/typo-tolerance.js';

/** The range of indexed terms sharing the word's first character: `[from, to)`. */
export function initialRange(word: string): [from: string, to: string] {
  const first = [...word][0] ?? '';
  return [first, String.fromCodePoint((first.codePointAt(0) ?? 0) + 1)];
}

/**
 * The indexed terms a query word matches under typo tolerance (docs/decisions/0170): the word
 * itself, and the terms of the same first character within its edit budget, closest first, at
 * most `expansions` (typo-tolerance.ts). `candidates` are the vocabulary's terms of the word's initial range.
 */
export function closeTerms(word: string, threshold: number | undefined, candidates: (from: string, to: string) => readonly string[], expansions: number): string[] {
  const folded = foldTerm(word);
  const edits = maxEdits(folded, threshold);
  if (edits === 0) return [folded];
  const near: [term: string, edits: number][] = [];
  for (const term of candidates(...initialRange(folded))) {
    if (Math.abs(term.length - folded.length) > edits) continue;
    const d = distance(folded, term);
    if (d <= edits) near.push([term, d]);
  }
  near.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return [folded, ...near.map(([term]) => term).filter((term) => term !== folded)].slice(0, expansions);
}
