import type { ReadModelProjection } from './read-model-target.js';
import { patch, put, remove } from './read-model-target.js';

/** Management and delivery roles, and their permissions (one document per role and content type). */

export const permissionId = (role: string, contentType: string): string => `${role}:${contentType}`;

export const rolesProjection: ReadModelProjection = {
  indexes: { roles: [['env', 'kind', 'created_at']], role_permissions: [['role', 'content_type']] },
  changes: (event) => {
    switch (event.type) {
      case 'RoleCreated':
        return [put('roles', event.data.key, { ...event.data })];
      case 'RoleUpdated': {
        const { name, description, full_access } = event.data;
        return [patch('roles', event.data.key, { name, description, full_access })];
      }
      case 'RoleDeleted':
        return [remove('roles', event.data.key)];
      case 'PermissionCreated':
      case 'PermissionUpdated':
        return [put('role_permissions', permissionId(event.data.role, event.data.content_type), { ...event.data })];
      case 'PermissionDeleted':
        return [remove('role_permissions', permissionId(event.data.role, event.data.content_type))];
      default:
        return [];
    }
  },
  removals: (event) => (event.type === 'RoleDeleted' ? [{ collection: 'role_permissions', where: { role: event.data.key } }] : []),
};
