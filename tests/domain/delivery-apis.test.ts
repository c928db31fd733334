import { expect } from 'chai';
import { deliveryApis, type CollectionFacts, type ConnectCollection, type CreateApi, type DeliveryApisCommand } from '../../domain/delivery-apis/decider.js';
import type { ApiCreated, CollectionConnected, DeliveryApisEvent } from '../../domain/delivery-apis/events.js';
import { deciderSpec } from '../support/decider-spec.js';

const spec = deciderSpec(deliveryApis);
const at = '2026-01-01T00:00:00.000Z';
const plain: CollectionFacts = { exists: true, strictChain: [], strictDependents: [] };

const createApi = (key: string, prefix: string, quota = 5): CreateApi => ({
  type: 'CreateApi',
  data: {
    env: 'e', key, name: prefix, description: '', prefix, version: '1', is_auth_required: false,
    mcp_enabled: true, router_introspection_enabled: true, cors_origins: [], created_at: at, quota,
  },
});
const apiCreated = (command: CreateApi): ApiCreated => {
  const { quota: _quota, ...data } = command.data;
  return { type: 'ApiCreated', data };
};
const connect = (api: string, folder: string, collection: CollectionFacts = plain, extra: Partial<ConnectCollection['data']> = {}): ConnectCollection => ({
  type: 'ConnectCollection',
  data: {
    env: 'e', api, folder, allowed_methods: ['get_many'], description_get_one: '', description_get_many: '', description_search: '',
    description_schema: '', mcp_truncate_text: 1000, unscoped_levels: [], unscoped_ancestors: [], created_at: at, collection, ...extra,
  },
});
const connected = (command: ConnectCollection): CollectionConnected => {
  const { collection: _collection, ...data } = command.data;
  return { type: 'CollectionConnected', data: { ...data, auto: false } };
};
const site = createApi('a1', 'site');
const types = (events: readonly DeliveryApisEvent[]) => events.map((e) => e.type);

describe('delivery APIs decider', () => {
  it('creates an API', () => {
    spec.given([]).when(site).then([apiCreated(site)]);
  });

  it('refuses a prefix used in the environment with api_prefix_exists, on create and on update', () => {
    spec.given([apiCreated(site)]).when(createApi('a2', 'site')).thenThrows('api_prefix_exists');
    const other = createApi('a2', 'other');
    spec.given([apiCreated(site), apiCreated(other)]).when({ type: 'UpdateApi', data: { env: 'e', key: 'a2', changes: { prefix: 'site' } } }).thenThrows('api_prefix_exists');
  });

  it('keeps its own prefix on update and the version at "1"', () => {
    const [event] = spec.given([apiCreated(site)]).when({ type: 'UpdateApi', data: { env: 'e', key: 'a1', changes: { prefix: 'site', name: 'New' } } }).thenReturns();
    expect(event?.data).to.deep.include({ prefix: 'site', name: 'New', version: '1', mcp_enabled: true });
  });

  it('refuses a create at the quota with plan_limit_exceeded for delivery_api', () => {
    spec.given([apiCreated(site)]).when(createApi('a2', 'other', 1)).thenThrows('plan_limit_exceeded', { entity: 'delivery_api', current: 1, limit: 1 });
  });

  it('deletes an API after disconnecting every connected collection', () => {
    const events = spec.given([apiCreated(site), connected(connect('a1', 'c1')), connected(connect('a1', 'c2'))]).when({ type: 'DeleteApi', data: { env: 'e', key: 'a1' } }).thenReturns();
    expect(types(events)).to.deep.equal(['CollectionDisconnected', 'CollectionDisconnected', 'ApiDeleted']);
    expect(events[2]?.data).to.deep.include({ snapshot: { name: 'site', description: '', prefix: 'site', version: '1', is_auth_required: false, mcp_enabled: true, router_introspection_enabled: true } });
  });

  it('connects a collection', () => {
    const command = connect('a1', 'c1');
    spec.given([apiCreated(site)]).when(command).then([connected(command)]);
  });

  it('connects the missing strict ancestors first with no allowed methods', () => {
    const chain: CollectionFacts = { exists: true, strictChain: ['courses', 'modules'], strictDependents: [] };
    const events = spec.given([apiCreated(site), connected(connect('a1', 'courses'))]).when(connect('a1', 'lessons', chain)).thenReturns();
    expect(events.map((e) => [(e.data as { folder: string }).folder, (e.data as unknown as { allowed_methods: string[] }).allowed_methods, (e.data as { auto: boolean }).auto])).to.deep.equal([
      ['modules', [], true],
      ['lessons', ['get_many'], false],
    ]);
  });

  it('refuses a second connection of the same collection', () => {
    spec.given([apiCreated(site), connected(connect('a1', 'c1'))]).when(connect('a1', 'c1')).thenThrows('collection_already_connected_to_api');
  });

  it('refuses an unknown API or collection with 404 codes', () => {
    spec.given([]).when(connect('a1', 'c1')).thenThrows('api_not_found');
    spec.given([apiCreated(site)]).when(connect('a1', 'c1', { ...plain, exists: false })).thenThrows('collection_not_found');
  });

  it('updates permissions and clears the ancestor chain when no level is published', () => {
    const chain: CollectionFacts = { exists: true, strictChain: ['courses'], strictDependents: [] };
    const given = [apiCreated(site), connected(connect('a1', 'lessons', chain, { unscoped_levels: [0], unscoped_ancestors: ['courses'] }))];
    const update: DeliveryApisCommand = { type: 'UpdateConnection', data: { env: 'e', api: 'a1', folder: 'lessons', changes: { allowed_methods: ['get_one'], unscoped_levels: [] }, collection: chain } };
    const [event] = spec.given(given).when(update).thenReturns();
    expect(event?.data).to.deep.include({ allowed_methods: ['get_one'], unscoped_levels: [], unscoped_ancestors: [] });
  });

  it('refuses levels without the live ancestor chain', () => {
    const chain: CollectionFacts = { exists: true, strictChain: ['courses', 'modules'], strictDependents: [] };
    spec.given([apiCreated(site)]).when(connect('a1', 'lessons', chain, { unscoped_levels: [0] })).thenThrows('validation_error');
    spec.given([apiCreated(site)]).when(connect('a1', 'lessons', chain, { unscoped_levels: [0], unscoped_ancestors: ['modules', 'courses'] })).thenThrows('validation_error');
    spec.given([apiCreated(site)]).when(connect('a1', 'lessons', chain, { unscoped_levels: [2], unscoped_ancestors: ['courses', 'modules'] })).thenThrows('validation_error');
    spec.given([apiCreated(site)]).when(connect('a1', 'c1', plain, { unscoped_levels: [0], unscoped_ancestors: ['x'] })).thenThrows('validation_error');
  });

  it('refuses to disconnect an ancestor a connected strict collection runs through with strict_reference_error', () => {
    const facts: CollectionFacts = { exists: true, strictChain: [], strictDependents: ['lessons'] };
    const given = [apiCreated(site), connected(connect('a1', 'courses')), connected(connect('a1', 'lessons'))];
    spec.given(given).when({ type: 'DisconnectCollection', data: { env: 'e', api: 'a1', folder: 'courses', collection: facts } }).thenThrows('strict_reference_error');
    spec.given(given).when({ type: 'DisconnectCollection', data: { env: 'e', api: 'a1', folder: 'lessons', collection: plain } }).then([
      { type: 'CollectionDisconnected', data: { env: 'e', api: 'a1', folder: 'lessons' } },
    ]);
  });
});
