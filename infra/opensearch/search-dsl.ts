import { expansionsPerWord, foldTerm, maxEdits } from '../../projections/typo-tolerance.js';
import type { TextQuery, VectorQuery } from '../../projections/ports.js';
import { vectorField } from './search-mapping.js';

/**
 * The request bodies of search on OpenSearch (docs/decisions/0171), pure so that they are
 * unit-tested against the documented query DSL: BM25 over the nested `search_texts` entries,
 * summed per document like the embedded index's per-row ranks, and k-NN queries with the scope
 * as an efficient filter.
 */

type Query = Record<string, unknown>;

/** Most hits one search may ask for (the default `index.max_result_window`). */
export const MAX_WINDOW = 10_000;

const BODY = 'search_texts.body';

const published = (env: string, folder: string): Query[] => [{ term: { env } }, { term: { folder } }, { term: { published: true } }];

/** Entries of this locale and non-localizable ones (''); every locale when null. */
const localeFilter = (path: string, locale: string | null): Query[] => (locale === null ? [] : [{ terms: { [path]: [locale, ''] } }]);

/** One query word: exact, or within its edit budget with the first character kept (as fuzzy-terms.ts does on SQLite). */
export function wordQuery(word: string, threshold: number | undefined, expansions: number): Query {
  const edits = maxEdits(foldTerm(word), threshold);
  if (edits === 0) return { match: { [BODY]: { query: word } } };
  return { match: { [BODY]: { query: word, fuzziness: edits, prefix_length: 1, max_expansions: expansions, fuzzy_transpositions: false } } };
}

/** Full text: any of the words (or the phrase) in the named fields and locale; null when nothing can match. */
export function textSearchBody(env: string, folder: string, query: TextQuery): Query | null {
  const words = query.words ?? [];
  if (query.fields.length === 0 || (query.phrase ? query.phrase.length === 0 : words.length === 0)) return null;
  const match = query.phrase
    ? { match_phrase: { [BODY]: query.phrase.join(' ') } }
    : { bool: { should: words.map((word) => wordQuery(word, query.threshold, expansionsPerWord(words.length))), minimum_should_match: 1 } };
  const entries = { bool: { filter: [{ terms: { 'search_texts.field': [...query.fields] } }, ...localeFilter('search_texts.locale', query.locale)], must: [match] } };
  return {
    size: Math.min(MAX_WINDOW, query.limit),
    track_total_hits: false,
    _source: ['key'],
    query: { bool: { filter: published(env, folder), must: [{ nested: { path: 'search_texts', score_mode: 'sum', query: entries } }] } },
    sort: [{ _score: { order: 'desc' } }, { key: { order: 'asc' } }],
  };
}

/** Neighbours asked for per field: twice the limit, as on SQLite. */
export const neighbours = (limit: number): number => Math.max(1, Math.min(MAX_WINDOW, limit * 2));

/** The nearest vectors of one field of a collection (efficient k-NN filtering on the scope and locale). */
export function vectorSearchBody(env: string, folder: string, field: string, query: VectorQuery): Query {
  const k = neighbours(query.limit);
  const filter = { bool: { filter: [{ term: { env } }, { term: { folder } }, { term: { field } }, ...localeFilter('locale', query.locale)] } };
  return {
    size: k,
    track_total_hits: false,
    _source: ['key'],
    query: { knn: { [vectorField(query.vector.length)]: { vector: Array.from(query.vector), k, filter } } },
  };
}

/** The k-NN plugin scores cosine similarity as (2 - d) / 2 with d = 1 - cos: back to the cosine distance. */
export const cosineDistance = (score: number): number => Math.max(0, 2 - 2 * score);

/** Bytes of one document's stored vectors. */
export const vectorsSizeBody = (doc: string): Query => ({ size: 0, track_total_hits: false, query: { term: { doc } }, aggs: { bytes: { sum: { field: 'bytes' } } } });

/** Every vector of these documents (they are re-indexed, unpublished or deleted). */
export const vectorsOfDocs = (docs: readonly string[]): Query => ({ query: { terms: { doc: [...docs] } } });

/** Every document (or vector) of a collection. */
export const ofFolder = (env: string, folder: string): Query => ({ query: { bool: { filter: [{ term: { env } }, { term: { folder } }] } } });
