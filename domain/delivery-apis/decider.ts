import type { Decider, Message } from '../decider.js';
import { DomainError, notFound } from '../errors.js';
import { planLimitExceeded } from '../plan.js';
import type { ApiFields, ConnectionFields, DeliveryApisEvent } from './events.js';

/** The delivery APIs of one environment with their connections: owns prefix uniqueness and the quota. */

export type CreateApi = Message<'CreateApi', ApiFields & { readonly quota: number }>;
export type ConnectCollection = Message<'ConnectCollection', ConnectionFields & { readonly collectionExists: boolean }>;
export type DeliveryApisCommand = CreateApi | ConnectCollection;

export type ApiNode = { readonly key: string; readonly prefix: string; readonly connected: readonly string[] };

export type DeliveryApisState = { readonly apis: Readonly<Record<string, ApiNode>> };

function createApi({ data }: CreateApi, state: DeliveryApisState): DeliveryApisEvent[] {
  const { quota, ...api } = data;
  const all = Object.values(state.apis);
  if (state.apis[api.key]) throw new DomainError('validation_error', 'The API key exists already.');
  if (all.some((a) => a.prefix === api.prefix)) throw new DomainError('api_prefix_exists', 'The prefix is already used in this environment.');
  if (all.length >= quota) throw planLimitExceeded('delivery_api', all.length, quota, true);
  return [{ type: 'ApiCreated', data: api }];
}

function connect({ data }: ConnectCollection, state: DeliveryApisState): DeliveryApisEvent[] {
  const { collectionExists, ...connection } = data;
  const api = state.apis[connection.api];
  if (!api) throw notFound('api_not_found', 'API');
  if (!collectionExists) throw notFound('collection_not_found', 'Collection');
  if (api.connected.includes(connection.folder)) {
    throw new DomainError('collection_already_connected_to_api', 'The collection is already connected to this API.');
  }
  return [{ type: 'CollectionConnected', data: connection }];
}

export const deliveryApis: Decider<DeliveryApisState, DeliveryApisCommand, DeliveryApisEvent> = {
  initialState: () => ({ apis: {} }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'ApiCreated':
        return { apis: { ...state.apis, [event.data.key]: { key: event.data.key, prefix: event.data.prefix, connected: [] } } };
      case 'CollectionConnected': {
        const api = state.apis[event.data.api];
        if (!api) return state;
        return { apis: { ...state.apis, [api.key]: { ...api, connected: [...api.connected, event.data.folder] } } };
      }
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'CreateApi':
        return createApi(command, state);
      case 'ConnectCollection':
        return connect(command, state);
    }
  },
};
