import type { KeyKind } from '../api-keys/events.js';

/**
 * What a role's permissions name (docs/decisions/0061). Management permissions name an
 * area of the management interface; delivery permissions name the delivery APIs a key
 * may use (`flux-apis`, objects = API keys) and, optionally, the collections it may
 * reach through them (`collections`, objects = collection keys).
 */
export const CONTENT_TYPES: Readonly<Record<KeyKind, readonly string[]>> = {
  management: ['collections', 'resources', 'components', 'schemas', 'locales', 'flux-apis', 'management-api', 'delivery-api', 'events', 'webhooks'],
  delivery: ['flux-apis', 'collections'],
};

export const ACTIONS: Readonly<Record<KeyKind, readonly string[]>> = {
  management: ['create', 'read', 'update', 'delete'],
  delivery: ['read', 'create', 'update'],
};
