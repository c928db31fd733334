import type { Position } from '../commands/ports.js';
import type { DeliveryQuery } from './delivery-query.js';
import type { SearchField } from './search-fields.js';

export type Scalar = string | number | boolean | null;

export type Comparison = {
  readonly $eq?: Scalar;
  readonly $ne?: Scalar;
  readonly $in?: readonly Scalar[];
  readonly $gt?: string | number;
  readonly $gte?: string | number;
  readonly $lt?: string | number;
  readonly $lte?: string | number;
  readonly $exists?: boolean;
};

/**
 * The read-model filter language: a typed subset of MongoDB's, over scalar fields
 * (dot paths reach nested fields). A bare scalar means equality; `null` matches a
 * missing field too, as in MongoDB.
 */
export type Filter = {
  readonly $and?: readonly Filter[];
  readonly $or?: readonly Filter[];
  readonly [field: string]: Scalar | Comparison | readonly Filter[] | undefined;
};

export type Sort = readonly (readonly [field: string, direction: 1 | -1])[];

export type FindOptions = {
  readonly sort?: Sort;
  readonly skip?: number;
  readonly limit?: number;
};

export type Doc = { readonly _id: string } & Record<string, unknown>;

export interface ReadCollection<T extends Doc = Doc> {
  get(id: string): Promise<T | null>;
  find(filter?: Filter, options?: FindOptions): Promise<T[]>;
  count(filter?: Filter): Promise<number>;
  upsert(doc: T): Promise<void>;
  delete(id: string): Promise<void>;
  deleteMany(filter: Filter): Promise<number>;
}

/** Writes of one projection batch; on SQLite one transaction with the checkpoint. */
export interface ReadStoreTx {
  collection<T extends Doc = Doc>(name: string): ReadCollection<T>;
}

export interface ReadStore {
  /** Reads for the API side: never inside a projection's uncommitted batch. */
  collection<T extends Doc = Doc>(name: string): ReadCollection<T>;
  /** Declares an index on the named fields (idempotent). */
  ensureIndex(collection: string, fields: readonly string[]): Promise<void>;
  /** Runs `work` and stores `position` as the checkpoint of `consumer`, atomically where the store allows. */
  unitOfWork(consumer: string, position: Position, work: (tx: ReadStoreTx) => Promise<void>): Promise<void>;
  checkpoint(consumer: string): Promise<Position>;
  /**
   * Raises `consumer`'s checkpoint epoch to `epoch` (a lease just taken, docs/decisions/0386); from
   * then on its checkpoint writes through this store carry that epoch and are refused with
   * `LeaseLost`, rolling their unit of work back, once a later epoch fenced it.
   */
  fence?(consumer: string, epoch: number): Promise<void>;
  close(): Promise<void>;
}

/** A published document as the delivery interface serves it. */
export type DeliveryDoc = {
  readonly env: string;
  readonly folder: string;
  readonly key: string;
  readonly created_at: string;
  readonly updated_at: string;
  /** Parent resource key in strict-reference collections, else null. */
  readonly owner: string | null;
  /** Published payload; null while the resource has no published revision (never served). */
  readonly data: Record<string, unknown> | null;
};

/** Where a cursor page starts: the sort key (created_at, key) of the item next to it. */
export type CursorKey = { readonly created_at: string; readonly key: string };

export type PageRequest = {
  readonly limit: number;
  /** Items strictly after this key (forward) ... */
  readonly after?: CursorKey;
  /** ... or strictly before it (backward); at most one of the two. */
  readonly before?: CursorKey;
  /** Only documents whose owner (parent resource) is one of these. */
  readonly owners?: readonly string[];
};

export type Page = {
  /** In ascending (created_at, key) order whichever way the page was read. */
  readonly items: DeliveryDoc[];
  /** Whether more items exist beyond the page in the direction it was read. */
  readonly hasMore: boolean;
};

/** A published document with its payload as the JSON text the index stored, not parsed (docs/decisions/0235). */
export type StoredDoc = Omit<DeliveryDoc, 'data'> & { readonly text: string };

export type StoredPage = { readonly items: StoredDoc[]; readonly hasMore: boolean };

export interface SearchIndexTx extends SearchIndexTxSearch {
  get(env: string, folder: string, key: string): Promise<DeliveryDoc | null>;
  index(doc: DeliveryDoc): Promise<void>;
  remove(env: string, folder: string, key: string): Promise<void>;
  /** Removes every document of a collection (the collection was deleted). */
  removeFolder(env: string, folder: string): Promise<void>;
}

export interface SearchIndex extends SearchQueries {
  /** A published document (data not null), or null. */
  get(env: string, folder: string, key: string): Promise<DeliveryDoc | null>;
  /** Published documents of a collection by (created_at, key). */
  list(env: string, folder: string, page: PageRequest): Promise<Page>;
  /**
   * Published documents of a collection that match the query's `where` tree, in its sort
   * order, one page from its cursor: filter, sort and paging run inside the engine.
   * Items come in sort order whichever way the page was read.
   */
  query(env: string, folder: string, query: DeliveryQuery): Promise<Page>;
  /**
   * `query` with each payload as the JSON text `JSON.stringify` gave when it was indexed, for
   * answers that serve payloads unchanged (docs/decisions/0235); engines without it are read through `query`.
   */
  queryStored?(env: string, folder: string, query: DeliveryQuery): Promise<StoredPage>;
  unitOfWork(consumer: string, position: Position, work: (tx: SearchIndexTx) => Promise<void>): Promise<void>;
  checkpoint(consumer: string): Promise<Position>;
  /** As ReadStore.fence: checkpoint writes of `consumer` carry `epoch` from now on (docs/decisions/0386). */
  fence?(consumer: string, epoch: number): Promise<void>;
  close(): Promise<void>;
}

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
