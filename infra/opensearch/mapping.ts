import type { Types } from '@opensearch-project/opensearch';
import type { DeliveryDoc } from '../../projections/ports.js';
import { flatten, type ValueEntry } from './flatten.js';
import { SEARCH_TEXTS_MAPPING, TEXT_ANALYSIS, type SearchTextSource } from './search-mapping.js';

type TypeMapping = Types.Common_Mapping.TypeMapping;

/**
 * A delivery document as stored: the published flag makes "data is not null" a filter;
 * `values` and `items` are the payload flattened for queries (flatten.ts); `search_texts` its
 * full-text entries (search-mapping.ts).
 */
export type Source = DeliveryDoc & {
  readonly published: boolean;
  readonly values?: readonly ValueEntry[];
  readonly items?: readonly ValueEntry[];
  readonly search_texts?: readonly SearchTextSource[];
};

export type Checkpoint = { readonly position: string; readonly epoch?: number };

export const docId = (env: string, folder: string, key: string): string => `${env}|${folder}|${key}`;

export const toSource = (doc: DeliveryDoc, searchTexts: readonly SearchTextSource[] = []): Source => ({
  env: doc.env,
  folder: doc.folder,
  key: doc.key,
  created_at: doc.created_at,
  updated_at: doc.updated_at,
  owner: doc.owner,
  data: doc.data,
  published: doc.data !== null,
  ...flatten(doc.data),
  ...(searchTexts.length > 0 ? { search_texts: searchTexts } : {}),
});

export const toDoc = (source: Source): DeliveryDoc => ({
  env: source.env,
  folder: source.folder,
  key: source.key,
  created_at: source.created_at,
  updated_at: source.updated_at,
  owner: source.owner ?? null,
  data: source.data ?? null,
});

const keyword = { type: 'keyword' } as const;

/** Strings longer than this are kept in _source but not indexed (Lucene caps a term at 32 KB). */
const LONGEST_INDEXED = 8191;

/** One flattened value: its path and JSON type, the string (as is and folded), number, boolean and sort rank. */
const ENTRY_PROPERTIES = {
  path: keyword,
  type: keyword,
  r: { type: 'byte' },
  s: { type: 'keyword', ignore_above: LONGEST_INDEXED },
  f: { type: 'keyword', normalizer: 'fold', ignore_above: LONGEST_INDEXED },
  n: { type: 'double' },
  b: { type: 'boolean' },
} as const;

/**
 * A payload path's value, its strings also as `wildcard` fields (`s.w`, and `f.w` folded), which
 * index the trigrams of the whole string, however long, and check each candidate against it:
 * the substring operators' index (docs/decisions/0338). Array elements (`items`) are never
 * searched by substring.
 */
const VALUE_ENTRY = {
  type: 'nested',
  properties: {
    ...ENTRY_PROPERTIES,
    s: { ...ENTRY_PROPERTIES.s, fields: { w: { type: 'wildcard' } } },
    f: { ...ENTRY_PROPERTIES.f, fields: { w: { type: 'wildcard', normalizer: 'fold' } } },
  },
} as const;

const ITEM_ENTRY = { type: 'nested', properties: ENTRY_PROPERTIES } as const;

/** The `fold` normalizer of the case-insensitive operators; the analyzer of the full-text entries. */
export const DOCS_SETTINGS = { analysis: { normalizer: { fold: { type: 'custom', filter: ['lowercase'] } }, ...TEXT_ANALYSIS } } as const;

/**
 * Timestamps are keywords: lists are ordered by (created_at, key) as strings, exactly like
 * the embedded index. The payload is kept in _source (`enabled: false`); queries read its
 * flattened copy in the nested `values` (every path) and `items` (array elements).
 */
export const DOCS_MAPPING: TypeMapping = {
  dynamic: 'strict',
  properties: {
    env: keyword,
    folder: keyword,
    key: keyword,
    created_at: keyword,
    updated_at: keyword,
    owner: keyword,
    published: { type: 'boolean' },
    data: { type: 'object', enabled: false },
    values: VALUE_ENTRY,
    items: ITEM_ENTRY,
    search_texts: SEARCH_TEXTS_MAPPING,
  },
};

export const CHECKPOINTS_MAPPING: TypeMapping = {
  dynamic: 'strict',
  // epoch: the lease that fenced the checkpoint (docs/decisions/0386); put on an index made before it.
  properties: { position: { type: 'keyword', index: false }, epoch: { type: 'long', index: false } },
};

/** The delivery projection's schema knowledge for search: one JSON value per id. */
export const SEARCH_META_MAPPING: TypeMapping = {
  dynamic: 'strict',
  properties: { value: { type: 'keyword', index: false } },
};
