import { deliveryApis, type ConnectCollection, type CreateApi } from '../../domain/delivery-apis/decider.js';
import type { ApiCreated, CollectionConnected } from '../../domain/delivery-apis/events.js';
import { deciderSpec } from '../support/decider-spec.js';

const spec = deciderSpec(deliveryApis);
const at = '2026-01-01T00:00:00.000Z';

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
const connect = (api: string, folder: string, collectionExists = true): ConnectCollection => ({
  type: 'ConnectCollection',
  data: {
    env: 'e', api, folder, allowed_methods: ['get_many'], description_get_one: '', description_get_many: '', description_search: '',
    description_schema: '', mcp_truncate_text: 1000, created_at: at, collectionExists,
  },
});
const connected = (command: ConnectCollection): CollectionConnected => {
  const { collectionExists: _exists, ...data } = command.data;
  return { type: 'CollectionConnected', data };
};

describe('delivery APIs decider', () => {
  const site = createApi('a1', 'site');

  it('creates an API', () => {
    spec.given([]).when(site).then([apiCreated(site)]);
  });

  it('refuses a prefix used in the environment with api_prefix_exists', () => {
    spec.given([apiCreated(site)]).when(createApi('a2', 'site')).thenThrows('api_prefix_exists');
  });

  it('refuses a create at the quota with plan_limit_exceeded for delivery_api', () => {
    spec.given([apiCreated(site)]).when(createApi('a2', 'other', 1)).thenThrows('plan_limit_exceeded', { entity: 'delivery_api', current: 1, limit: 1 });
  });

  it('connects a collection', () => {
    const command = connect('a1', 'c1');
    spec.given([apiCreated(site)]).when(command).then([connected(command)]);
  });

  it('refuses a second connection of the same collection', () => {
    spec.given([apiCreated(site), connected(connect('a1', 'c1'))]).when(connect('a1', 'c1')).thenThrows('collection_already_connected_to_api');
  });

  it('refuses an unknown API or collection with 404 codes', () => {
    spec.given([]).when(connect('a1', 'c1')).thenThrows('api_not_found');
    spec.given([apiCreated(site)]).when(connect('a1', 'c1', false)).thenThrows('collection_not_found');
  });
});
