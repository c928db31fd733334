import type { Position } from '../commands/ports.js';
import type { DeliveryQuery } from './delivery-query.js';
import type { SearchIndexTxSearch, SearchQueries } from './search-ports.js';

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
  close(): Promise<void>;
}
