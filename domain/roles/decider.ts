import type { KeyKind } from '../api-keys/events.js';
import type { Decider, Message } from '../decider.js';
import { DomainError, notFound } from '../errors.js';
import { planLimitExceeded } from '../plan.js';
import { has, own } from '../records.js';
import { MAX_OBJECTS, type PermissionFields, type RoleFields, type RolesEvent } from './events.js';

/** The custom roles of one environment, management and delivery together (one quota), with their permissions. */

type OfRole = { readonly env: string; readonly kind: KeyKind; readonly role: string };
/** A permission as sent, with the key it gets if it is new. */
export type PermissionInput = PermissionFields & { readonly key: string };

export type CreateRole = Message<'CreateRole', RoleFields & { readonly quota: number }>;
export type UpdateRole = Message<'UpdateRole', Omit<RoleFields, 'created_at' | 'name' | 'description' | 'full_access'> & { readonly name?: string; readonly description?: string; readonly full_access?: boolean }>;
export type DeleteRole = Message<'DeleteRole', { readonly env: string; readonly kind: KeyKind; readonly key: string }>;
/** Upserts the permission of one content type. */
export type SetPermission = Message<'SetPermission', OfRole & PermissionInput>;
export type DeletePermission = Message<'DeletePermission', OfRole & { readonly content_type: string }>;
/** Replaces the whole set. */
export type ReplacePermissions = Message<'ReplacePermissions', OfRole & { readonly permissions: readonly PermissionInput[] }>;
export type AddPermissionObject = Message<'AddPermissionObject', OfRole & { readonly content_type: string; readonly object_key: string }>;
export type RemovePermissionObject = Message<'RemovePermissionObject', OfRole & { readonly content_type: string; readonly object_key: string }>;
export type RolesCommand = CreateRole | UpdateRole | DeleteRole | SetPermission | DeletePermission | ReplacePermissions | AddPermissionObject | RemovePermissionObject;

export type PermissionState = PermissionFields & { readonly key: string };
export type RoleState = {
  readonly kind: KeyKind;
  readonly name: string;
  readonly description: string;
  readonly full_access: boolean;
  readonly permissions: Readonly<Record<string, PermissionState>>;
};
export type RolesState = { readonly roles: Readonly<Record<string, RoleState>> };

export function roleOf(state: RolesState, kind: KeyKind, key: string): RoleState {
  const role = own(state.roles, key);
  if (!role || role.kind !== kind) throw notFound('not_found', 'Role');
  return role;
}

const tooManyObjects = (): DomainError =>
  new DomainError('validation_error', `A role lists at most ${MAX_OBJECTS} object IDs across its permissions.`, { objects: [`at most ${MAX_OBJECTS} objects per role`] });

const objectCount = (permissions: Iterable<PermissionFields>): number => [...permissions].reduce((n, p) => n + new Set(p.objects).size, 0);

/**
 * The specification's "Object IDs per role: 50": the role's permissions together list at most
 * 50 objects. A change that does not add to a role over the limit (one from before the rule) is
 * let through, so such a role can always be trimmed.
 */
function checkObjects(role: RoleState, after: readonly PermissionFields[]): void {
  const count = objectCount(after);
  if (count > MAX_OBJECTS && count > objectCount(Object.values(role.permissions))) throw tooManyObjects();
}

const othersThan = (role: RoleState, contentType: string): PermissionFields[] => Object.values(role.permissions).filter((p) => p.content_type !== contentType);

function setEvents(ref: OfRole, role: RoleState, input: PermissionInput): RolesEvent[] {
  const current = own(role.permissions, input.content_type);
  const data = { ...ref, ...input, key: current?.key ?? input.key, objects: [...new Set(input.objects)] };
  return [{ type: current ? 'PermissionUpdated' : 'PermissionCreated', data }];
}

function deleteEvent(ref: OfRole, permission: PermissionState): RolesEvent {
  const { key, content_type, actions, all_objects } = permission;
  return { type: 'PermissionDeleted', data: { ...ref, key, content_type, snapshot: { role_key: ref.role, content_type, actions, all_objects } } };
}

function permissionOf(role: RoleState, contentType: string): PermissionState {
  const permission = own(role.permissions, contentType);
  if (!permission) throw notFound('not_found', 'Permission');
  return permission;
}

function decide(command: RolesCommand, state: RolesState): RolesEvent[] {
  switch (command.type) {
    case 'CreateRole': {
      const { quota, ...role } = command.data;
      if (has(state.roles, role.key)) throw new DomainError('validation_error', 'The role exists already.');
      const count = Object.keys(state.roles).length;
      if (count >= quota) throw planLimitExceeded('roles', count, quota, true);
      return [{ type: 'RoleCreated', data: role }];
    }
    case 'UpdateRole': {
      const { env, kind, key } = command.data;
      const current = roleOf(state, kind, key);
      const full_access = kind === 'delivery' ? false : (command.data.full_access ?? current.full_access);
      return [{ type: 'RoleUpdated', data: { env, kind, key, name: command.data.name ?? current.name, description: command.data.description ?? current.description, full_access } }];
    }
    case 'DeleteRole': {
      const { env, kind, key } = command.data;
      const current = roleOf(state, kind, key);
      const full_access = kind === 'delivery' ? null : current.full_access;
      return [{ type: 'RoleDeleted', data: { env, kind, key, snapshot: { name: current.name, description: current.description, full_access } } }];
    }
    case 'SetPermission': {
      const { env, kind, role, ...input } = command.data;
      const current = roleOf(state, kind, role);
      checkObjects(current, [...othersThan(current, input.content_type), input]);
      return setEvents({ env, kind, role }, current, input);
    }
    case 'DeletePermission': {
      const { env, kind, role, content_type } = command.data;
      return [deleteEvent({ env, kind, role }, permissionOf(roleOf(state, kind, role), content_type))];
    }
    case 'ReplacePermissions': {
      const { env, kind, role, permissions } = command.data;
      const ref = { env, kind, role };
      const current = roleOf(state, kind, role);
      const types = permissions.map((p) => p.content_type);
      if (new Set(types).size !== types.length) {
        throw new DomainError('validation_error', 'A content type appears twice.', { content_type: ['must be unique in the batch'] });
      }
      checkObjects(current, permissions);
      const dropped = Object.values(current.permissions).filter((p) => !types.includes(p.content_type));
      return [...dropped.map((p) => deleteEvent(ref, p)), ...permissions.flatMap((p) => setEvents(ref, current, p))];
    }
    case 'AddPermissionObject':
    case 'RemovePermissionObject': {
      const { env, kind, role, content_type, object_key } = command.data;
      const current = roleOf(state, kind, role);
      const permission = permissionOf(current, content_type);
      const adding = command.type === 'AddPermissionObject';
      if (adding === permission.objects.includes(object_key)) {
        if (adding) return [];
        throw notFound('not_found', 'Permission object');
      }
      const objects = adding ? [...permission.objects, object_key] : permission.objects.filter((o) => o !== object_key);
      checkObjects(current, [...othersThan(current, content_type), { ...permission, objects }]);
      return setEvents({ env, kind, role }, current, { ...permission, objects });
    }
  }
}

function evolve(state: RolesState, event: RolesEvent): RolesState {
  switch (event.type) {
    case 'RoleCreated':
    case 'RoleUpdated': {
      const { key, kind, name, description, full_access } = event.data;
      const permissions = own(state.roles, key)?.permissions ?? {};
      return { roles: { ...state.roles, [key]: { kind, name, description, full_access, permissions } } };
    }
    case 'RoleDeleted': {
      const { [event.data.key]: _gone, ...roles } = state.roles;
      return { roles };
    }
    case 'PermissionCreated':
    case 'PermissionUpdated':
    case 'PermissionDeleted': {
      const role = own(state.roles, event.data.role);
      if (!role) return state;
      const { content_type } = event.data;
      const { [content_type]: _old, ...rest } = role.permissions;
      const permissions =
        event.type === 'PermissionDeleted'
          ? rest
          : { ...rest, [content_type]: { key: event.data.key, content_type, actions: event.data.actions, all_objects: event.data.all_objects, objects: event.data.objects } };
      return { roles: { ...state.roles, [event.data.role]: { ...role, permissions } } };
    }
  }
}

export const roles: Decider<RolesState, RolesCommand, RolesEvent> = { initialState: () => ({ roles: {} }), evolve, decide };
