import type { Decider, Message } from '../decider.js';
import { DomainError, notFound } from '../errors.js';
import { planLimitExceeded } from '../plan.js';
import { has, own } from '../records.js';
import { DEFAULT_DESCRIPTIONS, type ApiFields, type ConnectionFields, type DeliveryApisEvent } from './events.js';
import { checkUnscoped } from './unscoped.js';

/** The delivery APIs of one environment with their connections: owns prefix uniqueness and the quota. */

/** What the handler looked up in the collection tree about the collection a command names. */
export type CollectionFacts = {
  readonly exists: boolean;
  /** Key-bearing ancestors (root first) a strict-reference collection's nested route runs through; [] otherwise. */
  readonly strictChain: readonly string[];
  /** Collections whose nested route runs through this one. */
  readonly strictDependents: readonly string[];
};

type ApiInput = Omit<ApiFields, 'env' | 'key' | 'created_at'>;
type ConnectionInput = Omit<ConnectionFields, 'env' | 'api' | 'folder' | 'created_at'>;

export type CreateApi = Message<'CreateApi', ApiFields & { readonly quota: number }>;
export type UpdateApi = Message<'UpdateApi', { readonly env: string; readonly key: string; readonly changes: Partial<ApiInput> }>;
export type DeleteApi = Message<'DeleteApi', { readonly env: string; readonly key: string }>;
export type ConnectCollection = Message<
  'ConnectCollection',
  ConnectionFields & { readonly collection: CollectionFacts }
>;
export type UpdateConnection = Message<
  'UpdateConnection',
  { readonly env: string; readonly api: string; readonly folder: string; readonly changes: Partial<ConnectionInput>; readonly collection: CollectionFacts }
>;
export type DisconnectCollection = Message<
  'DisconnectCollection',
  { readonly env: string; readonly api: string; readonly folder: string; readonly collection: CollectionFacts }
>;
/** Ends every connection to the named collections, which no longer exist (docs/decisions/0012). */
export type DropConnections = Message<'DropConnections', { readonly env: string; readonly folders: readonly string[] }>;
export type DeliveryApisCommand = CreateApi | UpdateApi | DeleteApi | ConnectCollection | UpdateConnection | DisconnectCollection | DropConnections;

export type ApiState = ApiFields & { readonly connections: Readonly<Record<string, ConnectionFields>> };

export type DeliveryApisState = { readonly apis: Readonly<Record<string, ApiState>> };

function apiOf(state: DeliveryApisState, key: string): ApiState {
  const api = own(state.apis, key);
  if (!api) throw notFound('api_not_found', 'API');
  return api;
}

function prefixFree(state: DeliveryApisState, prefix: string, except: string | null): void {
  if (Object.values(state.apis).some((a) => a.prefix === prefix && a.key !== except)) {
    throw new DomainError('api_prefix_exists', 'The prefix is already used in this environment.');
  }
}

function createApi({ data }: CreateApi, state: DeliveryApisState): DeliveryApisEvent[] {
  const { quota, ...api } = data;
  const count = Object.keys(state.apis).length;
  if (has(state.apis, api.key)) throw new DomainError('validation_error', 'The API key exists already.');
  prefixFree(state, api.prefix, null);
  if (count >= quota) throw planLimitExceeded('delivery_api', count, quota, true);
  return [{ type: 'ApiCreated', data: api }];
}

function updateApi({ data }: UpdateApi, state: DeliveryApisState): DeliveryApisEvent[] {
  const { connections: _connections, ...current } = apiOf(state, data.key);
  const next: ApiFields = { ...current, ...data.changes, version: '1' };
  prefixFree(state, next.prefix, next.key);
  return [{ type: 'ApiUpdated', data: next }];
}

function deleteApi({ data }: DeleteApi, state: DeliveryApisState): DeliveryApisEvent[] {
  const api = apiOf(state, data.key);
  const { name, description, prefix, version, is_auth_required, mcp_enabled, router_introspection_enabled } = api;
  return [
    ...Object.keys(api.connections).map((folder): DeliveryApisEvent => ({ type: 'CollectionDisconnected', data: { env: data.env, api: api.key, folder } })),
    { type: 'ApiDeleted', data: { env: data.env, key: api.key, snapshot: { name, description, prefix, version, is_auth_required, mcp_enabled, router_introspection_enabled } } },
  ];
}

function connect({ data }: ConnectCollection, state: DeliveryApisState): DeliveryApisEvent[] {
  const { collection, ...connection } = data;
  const api = apiOf(state, connection.api);
  if (!collection.exists) throw notFound('collection_not_found', 'Collection');
  if (has(api.connections, connection.folder)) {
    throw new DomainError('collection_already_connected_to_api', 'The collection is already connected to this API.');
  }
  checkUnscoped(connection, collection.strictChain);
  const ancestors = collection.strictChain
    .filter((folder) => !has(api.connections, folder))
    .map((folder): DeliveryApisEvent => ({
      type: 'CollectionConnected',
      data: {
        ...DEFAULT_DESCRIPTIONS,
        env: connection.env, api: api.key, folder, allowed_methods: [], mcp_truncate_text: 1000,
        unscoped_levels: [], unscoped_ancestors: [], created_at: connection.created_at, auto: true,
      },
    }));
  return [...ancestors, { type: 'CollectionConnected', data: { ...connection, auto: false } }];
}

function updateConnection({ data }: UpdateConnection, state: DeliveryApisState): DeliveryApisEvent[] {
  const api = apiOf(state, data.api);
  const current = own(api.connections, data.folder);
  if (!current || !data.collection.exists) throw notFound('collection_not_found', 'Connected collection');
  const next: ConnectionFields = { ...current, ...data.changes };
  const cleared = next.unscoped_levels.length === 0 ? { ...next, unscoped_ancestors: [] } : next;
  checkUnscoped(cleared, data.collection.strictChain);
  return [{ type: 'ConnectionUpdated', data: cleared }];
}

function disconnect({ data }: DisconnectCollection, state: DeliveryApisState): DeliveryApisEvent[] {
  const api = apiOf(state, data.api);
  if (!has(api.connections, data.folder)) throw notFound('collection_not_found', 'Connected collection');
  const blocking = data.collection.strictDependents.filter((folder) => has(api.connections, folder));
  if (blocking.length > 0) {
    throw new DomainError('strict_reference_error', 'A connected strict-reference collection is nested under this one; disconnect it first.', {
      dependents: blocking,
    });
  }
  return [{ type: 'CollectionDisconnected', data: { env: data.env, api: data.api, folder: data.folder } }];
}

function dropConnections({ data }: DropConnections, state: DeliveryApisState): DeliveryApisEvent[] {
  const gone = new Set(data.folders);
  return Object.values(state.apis).flatMap((api) =>
    Object.keys(api.connections)
      .filter((folder) => gone.has(folder))
      .map((folder): DeliveryApisEvent => ({ type: 'CollectionDisconnected', data: { env: data.env, api: api.key, folder } })),
  );
}

function evolve(state: DeliveryApisState, event: DeliveryApisEvent): DeliveryApisState {
  const withApi = (api: ApiState): DeliveryApisState => ({ apis: { ...state.apis, [api.key]: api } });
  switch (event.type) {
    case 'ApiCreated':
      return withApi({ ...event.data, connections: {} });
    case 'ApiUpdated': {
      const api = own(state.apis, event.data.key);
      return api ? withApi({ ...event.data, connections: api.connections }) : state;
    }
    case 'ApiDeleted': {
      const { [event.data.key]: _gone, ...apis } = state.apis;
      return { apis };
    }
    case 'CollectionConnected':
    case 'ConnectionUpdated': {
      const api = own(state.apis, event.data.api);
      if (!api) return state;
      const { auto: _auto, ...connection } = event.data as typeof event.data & { auto?: boolean };
      return withApi({ ...api, connections: { ...api.connections, [connection.folder]: connection } });
    }
    case 'CollectionDisconnected': {
      const api = own(state.apis, event.data.api);
      if (!api) return state;
      const { [event.data.folder]: _gone, ...connections } = api.connections;
      return withApi({ ...api, connections });
    }
  }
}

export const deliveryApis: Decider<DeliveryApisState, DeliveryApisCommand, DeliveryApisEvent> = {
  initialState: () => ({ apis: {} }),
  evolve,
  decide: (command, state) => {
    switch (command.type) {
      case 'CreateApi':
        return createApi(command, state);
      case 'UpdateApi':
        return updateApi(command, state);
      case 'DeleteApi':
        return deleteApi(command, state);
      case 'ConnectCollection':
        return connect(command, state);
      case 'UpdateConnection':
        return updateConnection(command, state);
      case 'DisconnectCollection':
        return disconnect(command, state);
      case 'DropConnections':
        return dropConnections(command, state);
    }
  },
};
