import { deliveryApis, type CollectionFacts, type ConnectCollection, type CreateApi } from '../../domain/delivery-apis/decider.js';
import type { ApiCreated, CollectionConnected } from '../../domain/delivery-apis/events.js';
import { deciderSpec } from '../support/decider-spec.js';

const spec = deciderSpec(deliveryApis);
const at = '2026-01-01T00:00:00.000Z';
const live: CollectionFacts = { exists: true, strictChain: [], strictDependents: [] };
const gone: CollectionFacts = { exists: false, strictChain: [], strictDependents: [] };

const api = (key: string): ApiCreated => {
  const data: CreateApi['data'] = {
    env: 'e', key, name: key, description: '', prefix: key, version: '1', is_auth_required: false,
    mcp_enabled: true, router_introspection_enabled: true, cors_origins: [], created_at: at, quota: 5,
  };
  const { quota: _quota, ...fields } = data;
  return { type: 'ApiCreated', data: fields };
};
const connected = (apiKey: string, folder: string): CollectionConnected => {
  const data: Omit<ConnectCollection['data'], 'collection'> = {
    env: 'e', api: apiKey, folder, allowed_methods: ['get_many'], description_get_one: '', description_get_many: '', description_search: '',
    description_schema: '', mcp_truncate_text: 1000, unscoped_levels: [], unscoped_ancestors: [], created_at: at,
  };
  return { type: 'CollectionConnected', data: { ...data, auto: false } };
};
const disconnected = (apiKey: string, folder: string) => ({ type: 'CollectionDisconnected', data: { env: 'e', api: apiKey, folder } }) as const;

describe('delivery APIs decider: connections of deleted collections', () => {
  const given = [api('a1'), api('a2'), connected('a1', 'c1'), connected('a1', 'c2'), connected('a2', 'c1'), connected('a2', 'c3')];

  it('drops every connection to the deleted collections, in every API', () => {
    spec.given(given).when({ type: 'DropConnections', data: { env: 'e', folders: ['c1', 'c2'] } }).then([
      disconnected('a1', 'c1'),
      disconnected('a1', 'c2'),
      disconnected('a2', 'c1'),
    ]);
  });

  it('decides nothing when no connection names a deleted collection', () => {
    spec.given(given).when({ type: 'DropConnections', data: { env: 'e', folders: ['other'] } }).then([]);
    spec.given(given).when({ type: 'DropConnections', data: { env: 'e', folders: [] } }).then([]);
  });

  it('refuses to update a connection whose collection no longer exists with collection_not_found', () => {
    const update = { type: 'UpdateConnection', data: { env: 'e', api: 'a1', folder: 'c1', changes: {}, collection: gone } } as const;
    spec.given(given).when(update).thenThrows('collection_not_found');
    spec.given(given).when({ ...update, data: { ...update.data, collection: live } }).thenReturns();
  });

  it('still disconnects a leftover connection of a deleted collection', () => {
    spec.given(given).when({ type: 'DisconnectCollection', data: { env: 'e', api: 'a1', folder: 'c2', collection: gone } }).then([disconnected('a1', 'c2')]);
  });

  it('deletes an API with a leftover connection of a deleted collection', () => {
    spec.given(given).when({ type: 'DeleteApi', data: { env: 'e', key: 'a2' } }).thenReturns();
  });
});
