import type { Message } from '../decider.js';
import type { KeyKind } from '../api-keys/events.js';

export type RoleFields = {
  readonly env: string;
  readonly kind: KeyKind;
  readonly key: string;
  readonly name: string;
  readonly description: string;
  /** Management roles: bypasses every permission check. Always false for delivery roles. */
  readonly full_access: boolean;
  readonly created_at: string;
};

export type RoleSnapshot = { readonly name: string; readonly description: string; readonly full_access: boolean | null };

/** One permission of a role: what `actions` it allows on a `content_type`, on every object or on the listed ones. */
export type PermissionFields = {
  readonly content_type: string;
  readonly actions: readonly string[];
  readonly all_objects: boolean;
  readonly objects: readonly string[];
};

export type PermissionSnapshot = { readonly role_key: string } & Omit<PermissionFields, 'objects'>;

type OfRole = { readonly env: string; readonly kind: KeyKind; readonly role: string };
/** `key`: the permission's own key (its audit entity key). */
export type PermissionData = OfRole & PermissionFields & { readonly key: string };

export type RoleCreated = Message<'RoleCreated', RoleFields>;
export type RoleUpdated = Message<'RoleUpdated', Omit<RoleFields, 'created_at'>>;
export type RoleDeleted = Message<'RoleDeleted', { readonly env: string; readonly kind: KeyKind; readonly key: string; readonly snapshot: RoleSnapshot }>;
export type PermissionCreated = Message<'PermissionCreated', PermissionData>;
export type PermissionUpdated = Message<'PermissionUpdated', PermissionData>;
export type PermissionDeleted = Message<'PermissionDeleted', OfRole & { readonly key: string; readonly content_type: string; readonly snapshot: PermissionSnapshot }>;

export type RolesEvent = RoleCreated | RoleUpdated | RoleDeleted | PermissionCreated | PermissionUpdated | PermissionDeleted;

/** Object-level permissions list at most this many objects (specification, Fixed technical limits). */
export const MAX_OBJECTS = 50;
