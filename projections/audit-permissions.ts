import type { ApiKeysEvent } from '../domain/api-keys/events.js';
import type { RolesEvent } from '../domain/roles/events.js';
import { envEntry, type Entry } from './audit-entry.js';

/** Audit entries of API keys, roles and role permissions, with the specification's entity types and metadata. */

const KEY_TYPE = { management: 'manageapikey', delivery: 'deliveryapikey' } as const;
const ROLE_TYPE = { management: 'envrole', delivery: 'deliveryrole' } as const;
const PERMISSION_TYPE = { management: 'managepermissionrole', delivery: 'deliverypermissionrole' } as const;

export function apiKeyEntry(event: ApiKeysEvent): Entry {
  const { env, kind, key } = event.data;
  const type = KEY_TYPE[kind];
  switch (event.type) {
    case 'ApiKeyCreated':
      return envEntry(env, 'create', type, key, { role_key: event.data.role }, {});
    case 'ApiKeyDeleted':
      return envEntry(env, 'delete', type, key, { role_key: event.data.snapshot.role_key, snapshot: event.data.snapshot }, {});
    default:
      // An update, an issued or a revoked bearer token all change the key.
      return envEntry(env, 'update', type, key, { role_key: event.data.role }, {});
  }
}

export function rolesEntry(event: RolesEvent): Entry {
  const { env, kind } = event.data;
  const fullAccess = (value: boolean | null) => (kind === 'delivery' ? null : value);
  switch (event.type) {
    case 'RoleCreated':
    case 'RoleUpdated': {
      const { key, name, description, full_access } = event.data;
      return envEntry(env, event.type === 'RoleCreated' ? 'create' : 'update', ROLE_TYPE[kind], key, { name, description, full_access: fullAccess(full_access) }, {});
    }
    case 'RoleDeleted': {
      const snapshot = { ...event.data.snapshot, full_access: fullAccess(event.data.snapshot.full_access) };
      return envEntry(env, 'delete', ROLE_TYPE[kind], event.data.key, { ...snapshot, snapshot }, {});
    }
    case 'PermissionCreated':
    case 'PermissionUpdated': {
      const { key, role, content_type, actions, all_objects } = event.data;
      const metadata = { role_key: role, content_type, actions: [...actions], all_objects };
      return envEntry(env, event.type === 'PermissionCreated' ? 'create' : 'update', PERMISSION_TYPE[kind], key, metadata, {});
    }
    case 'PermissionDeleted':
      return envEntry(env, 'delete', PERMISSION_TYPE[kind], event.data.key, { ...event.data.snapshot, snapshot: event.data.snapshot }, {});
  }
}
