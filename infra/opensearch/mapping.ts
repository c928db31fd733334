import type { Types } from '@opensearch-project/opensearch';
import type { DeliveryDoc } from '../../projections/ports.js';

type TypeMapping = Types.Common_Mapping.TypeMapping;

/** A delivery document as stored: the published flag makes "data is not null" a filter. */
export type Source = DeliveryDoc & { readonly published: boolean };

export type Checkpoint = { readonly position: string };

export const docId = (env: string, folder: string, key: string): string => `${env}|${folder}|${key}`;

export const toSource = (doc: DeliveryDoc): Source => ({
  env: doc.env,
  folder: doc.folder,
  key: doc.key,
  created_at: doc.created_at,
  updated_at: doc.updated_at,
  owner: doc.owner,
  data: doc.data,
  published: doc.data !== null,
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

/**
 * Timestamps are keywords: lists are ordered by (created_at, key) as strings, exactly like
 * the embedded index. The payload is kept in _source only, for now (`enabled: false`).
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
  },
};

export const CHECKPOINTS_MAPPING: TypeMapping = {
  dynamic: 'strict',
  properties: { position: { type: 'keyword', index: false } },
};

/** The delivery projection's schema knowledge for search: one JSON value per id. */
export const SEARCH_META_MAPPING: TypeMapping = {
  dynamic: 'strict',
  properties: { value: { type: 'keyword', index: false } },
};
