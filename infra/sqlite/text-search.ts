import type { Scored, TextQuery } from '../../projections/search-ports.js';
import { expansionsPerWord } from '../../projections/typo-tolerance.js';
import { closeTerms } from './fuzzy-terms.js';
import { scopeOf, type TextIndexKeeper } from './text-index-keeper.js';
import { topK } from './text-top-k.js';

/**
 * A word search answered by the in-memory text index (docs/decisions/0200), with the terms
 * search-tables.ts's FTS5 query would have: each word and, under typo tolerance, the close terms
 * of the vocabulary. Null while the index loads, or when a term is not one token to FTS5 (FTS5 would read it as a phrase):
 * the caller asks FTS5 then.
 */
export function memoryTextSearch(keeper: TextIndexKeeper, env: string, folder: string, query: TextQuery, looked = false): Scored[] | null {
  // `looked`: the caller's `keeper.prepare()` has just read data_version for this search.
  const index = looked ? keeper.afterLook() : keeper.current();
  if (!index) return null;
  const words = query.words ?? [];
  const terms = [...new Set(words.flatMap((w) => closeTerms(w, query.threshold, (from, to) => index.termsBetween(from, to), expansionsPerWord(words.length))))];
  if (terms.length === 0) return [];
  const tokens = keeper.tokenize(terms);
  if (tokens.some((t) => t.length !== 1)) return null;
  return topK(index, { terms: tokens.map((t) => t[0]!), scope: scopeOf(env, folder), fields: query.fields, locale: query.locale, limit: query.limit });
}
