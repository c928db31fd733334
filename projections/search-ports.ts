import type { DeliveryDoc, StoredDoc } from './ports.js';
import type { SearchField } from './search-fields.js';

/** What the delivery index keeps for search beside each document (docs/decisions/0051). */

/** A `searchable` field's text in one locale ('' when the field is not localizable: it answers every locale). */
export type SearchText = { readonly field: string; readonly locale: string; readonly text: string };
/** An embedding of a `vectorizable` field, or a custom `vector` field's value, in one locale ('' as above). */
export type SearchVector = { readonly field: string; readonly locale: string; readonly vector: Float32Array };
export type SearchEntries = { readonly texts: readonly SearchText[]; readonly vectors: readonly SearchVector[] };

/** A document key with its score; higher is better for text (BM25), lower for vector distance. */
export type Scored = {
  readonly key: string;
  readonly score: number;
  /** The document's row in the engine that found it, when it knows it: the page is read by it (docs/decisions/0256). */
  readonly rowid?: number;
};

export type TextQuery = {
  /** Words to find, any of them (BM25 ranks documents with more and rarer ones first) ... */
  readonly words?: readonly string[];
  /** ... or one exact phrase. */
  readonly phrase?: readonly string[];
  /** Typo tolerance of `words` (projections/typo-tolerance.ts): absent or 1 is exact matching. */
  readonly threshold?: number;
  readonly fields: readonly string[];
  /** Entries of this locale and non-localizable ones; null for every locale. */
  readonly locale: string | null;
  readonly limit: number;
};

export type VectorQuery = {
  readonly vector: Float32Array;
  readonly fields: readonly string[];
  /** As for text. */
  readonly locale: string | null;
  readonly limit: number;
};

/** The search side of the SearchIndex port (implemented beside each adapter). */
export interface SearchQueries {
  /** Documents matching the text, best first, with their BM25 score (higher is better). */
  searchText(env: string, folder: string, query: TextQuery): Promise<Scored[]>;
  /** Documents nearest the vector, nearest first, with their cosine distance (0 = same direction). */
  searchVectors(env: string, folder: string, query: VectorQuery): Promise<Scored[]>;
  /** Published documents of a collection by key, in no particular order (unknown keys are left out). */
  docsByKeys(env: string, folder: string, keys: readonly string[]): Promise<DeliveryDoc[]>;
  /** The same with each payload as the JSON text it was indexed from (docs/decisions/0260); engines without it are read through `docsByKeys`. `rowids`: the keys' rows as the search gave them (`Scored.rowid`, same order), read by row and checked against the keys (docs/decisions/0256). */
  docsStoredByKeys?(env: string, folder: string, keys: readonly string[], rowids?: readonly number[]): Promise<StoredDoc[]>;
  /** The search flags of a collection's published fields (empty before its first publish). */
  searchFields(env: string, folder: string): Promise<SearchField[]>;
  /** Bytes of stored vectors of a document (the resource's `vectors_size`). */
  vectorsSize(env: string, folder: string, key: string): Promise<number>;
}

/** Search writes inside a delivery-index unit of work. */
export interface SearchIndexTxSearch {
  /** A small JSON value the projection keeps (its knowledge of the schemas), or null. */
  meta(id: string): Promise<unknown>;
  setMeta(id: string, value: unknown): Promise<void>;
  /** Replaces the search entries of an indexed document (re-indexing a document clears them). */
  indexSearch(env: string, folder: string, key: string, entries: SearchEntries): Promise<void>;
}
