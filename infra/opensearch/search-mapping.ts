import type { Types } from '@opensearch-project/opensearch';
import { ALL_FIELDS } from '../../projections/search-entries.js';
import type { SearchText, SearchVector } from '../../projections/ports.js';

type TypeMapping = Types.Common_Mapping.TypeMapping;

/**
 * Search entries on OpenSearch (docs/decisions/0171). Texts are nested in the delivery document
 * (`search_texts`: one entry per searchable field and locale, analysed for BM25 like the embedded
 * FTS5 table: words lower-cased, diacritics folded), so re-indexing or deleting the document drops
 * them. Vectors live in their own index, one document per field and locale, in a `knn_vector`
 * field per width (`v_100`, `v_256`...) with cosine similarity.
 */

/**
 * The analyzer of searchable text: words are runs of letters and digits (as the request's words and
 * FTS5's unicode61 tokenizer split them: "don't" is "don" and "t"), lower-cased, diacritics folded.
 */
export const TEXT_ANALYZER = 'folded_text';

export const TEXT_ANALYSIS = {
  tokenizer: { letters_and_digits: { type: 'pattern', pattern: '[^\\p{L}\\p{N}]+' } },
  analyzer: { [TEXT_ANALYZER]: { type: 'custom', tokenizer: 'letters_and_digits', filter: ['lowercase', 'asciifolding'] } },
} as const;

export const SEARCH_TEXTS_MAPPING = {
  type: 'nested',
  properties: {
    field: { type: 'keyword' },
    locale: { type: 'keyword' },
    body: { type: 'text', analyzer: TEXT_ANALYZER },
  },
} as const;

export type SearchTextSource = { readonly field: string; readonly locale: string; readonly body: string };

export const searchTextSources = (texts: readonly SearchText[]): SearchTextSource[] => texts.map((t) => ({ field: t.field, locale: t.locale, body: t.text }));

/** The k-NN plugin's index setting: vectors are indexed for approximate search. */
export const VECTORS_SETTINGS = { index: { knn: true } } as const;

/** The vector field of a width: added to the mapping the first time a vector of that width is stored. */
export const vectorField = (dims: number): string => `v_${dims}`;

/** Lucene's HNSW: efficient filtering (the scope filter is applied while searching), cosine similarity. */
export const vectorFieldMapping = (dims: number) =>
  ({ type: 'knn_vector', dimension: dims, method: { name: 'hnsw', space_type: 'cosinesimil', engine: 'lucene' } }) as const;

export const VECTORS_MAPPING: TypeMapping = {
  dynamic: 'strict',
  properties: {
    doc: { type: 'keyword' },
    env: { type: 'keyword' },
    folder: { type: 'keyword' },
    key: { type: 'keyword' },
    field: { type: 'keyword' },
    locale: { type: 'keyword' },
    bytes: { type: 'integer' },
  },
};

export type VectorSource = {
  readonly doc: string;
  readonly env: string;
  readonly folder: string;
  readonly key: string;
  readonly field: string;
  readonly locale: string;
  readonly bytes: number;
  /** The vector, in the field of its width (`v_100`...). */
  readonly [width: string]: string | number | number[];
};

export const vectorId = (doc: string, vector: SearchVector): string => `${doc}|${vector.field}|${vector.locale}`;

/**
 * A stored vector; the combined embedding is derived data and not counted in `vectors_size`. A
 * zero vector (a text of no known word) has no direction: the k-NN plugin refuses it for cosine
 * similarity, so it is kept without its `knn_vector` field (counted, never near anything).
 */
export function vectorSource(doc: string, env: string, folder: string, key: string, vector: SearchVector): VectorSource {
  const bytes = vector.field === ALL_FIELDS ? 0 : vector.vector.byteLength;
  const base = { doc, env, folder, key, field: vector.field, locale: vector.locale, bytes };
  return vector.vector.every((x) => x === 0) ? base : { ...base, [vectorField(vector.vector.length)]: Array.from(vector.vector) };
}

/** The widths a vectors-index mapping holds, from its `v_<n>` fields. */
export function widthsOf(properties: Record<string, unknown> | undefined): number[] {
  return Object.keys(properties ?? {})
    .filter((name) => /^v_\d+$/.test(name))
    .map((name) => Number(name.slice(2)));
}
