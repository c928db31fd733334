import type { KeyKind } from '../api-keys/events.js';
import { evolveAll } from '../decider.js';
import { own } from '../records.js';
import { roles, type RoleState, type RolesCommand, type RolesState } from './decider.js';
import type { PermissionFields } from './events.js';

/**
 * Escalation prevention, the rule Kubernetes RBAC enforces (docs/decisions/0331): a caller
 * may give a role, or bind a key to one, only when it itself holds every right that role
 * gives. Pure: the caller's rights and the roles arrive as data.
 */

/** Who calls: a user or the system (`role` undefined) is unrestricted, as is a key without a role. */
export type Caller = { readonly key: string | null; readonly role: string | null };

/** What a caller holds: 'all' (unrestricted or full access) or a management role's permissions. */
export type Holder = 'all' | readonly PermissionFields[];

/** What a grant gives: 'all' (full access, or a key without a role) or a role's permissions. */
export type Grant = 'all' | { readonly kind: KeyKind; readonly permissions: readonly PermissionFields[] };

/** One right, in management terms: an action on a content type, on every object ('all') or on the listed ones. */
export type Right = { readonly content_type: string; readonly action: string; readonly objects: 'all' | readonly string[] };

export const UNRESTRICTED: Caller = { key: null, role: null };

/** The caller's rights, from the roles as they are before the change. A missing role holds nothing. */
export function holderOf(caller: Caller, state: RolesState): Holder {
  if (caller.role === null) return 'all';
  const role = own(state.roles, caller.role);
  if (!role || role.kind !== 'management') return [];
  return role.full_access ? 'all' : Object.values(role.permissions);
}

/** What binding a key of `kind` to `roleKey` gives. A role that does not exist gives nothing (the binding is refused elsewhere). */
export function grantOf(kind: KeyKind, roleKey: string | null, state: RolesState): Grant {
  if (roleKey === null) return 'all';
  const role = own(state.roles, roleKey);
  if (!role || role.kind !== kind) return { kind, permissions: [] };
  return grantOfRole(role);
}

const grantOfRole = (role: RoleState): Grant => (role.full_access ? 'all' : { kind: role.kind, permissions: Object.values(role.permissions) });

const scope = (p: PermissionFields): Right['objects'] => (p.all_objects ? 'all' : p.objects);

/**
 * The rights a grant gives, in management terms. A delivery role reads (through its APIs) the
 * collections its `collections` permission lists, every collection without one, and writes
 * resources there: in management terms `flux-apis: read` on its APIs, `collections: read` and
 * `resources: create / update` on its collections.
 */
export function rightsOf(grant: Exclude<Grant, 'all'>): Right[] {
  if (grant.kind === 'management') return grant.permissions.flatMap((p) => p.actions.map((action) => ({ content_type: p.content_type, action, objects: scope(p) })));
  const apis = grant.permissions.find((p) => p.content_type === 'flux-apis');
  if (!apis) return [];
  const collections = grant.permissions.find((p) => p.content_type === 'collections');
  const objects = collections ? scope(collections) : 'all';
  const actions = apis.actions.filter((a) => !collections || collections.actions.includes(a));
  return [
    { content_type: 'flux-apis', action: 'read', objects: scope(apis) },
    ...actions.map((action) => ({ content_type: action === 'read' ? 'collections' : 'resources', action, objects })),
  ];
}

/** Whether the holder's permissions hold the right: `all_objects` covers any list, a list covers its subsets. */
export function holds(permissions: readonly PermissionFields[], right: Right): boolean {
  const p = permissions.find((q) => q.content_type === right.content_type);
  if (!p || !p.actions.includes(right.action)) return false;
  if (p.all_objects) return true;
  return right.objects !== 'all' && right.objects.every((o) => p.objects.includes(o));
}

export const describeRight = (r: Right): string => `${r.content_type}: ${r.action} on ${r.objects === 'all' ? 'all objects' : r.objects.join(', ') || 'no objects'}`;

/** The first right the grant gives that the holder lacks, described, or null when the holder may grant it. */
export function missingRight(holder: Holder, grant: Grant): string | null {
  if (holder === 'all') return null;
  if (grant === 'all') return 'full access (a full-access role, or a key without a role)';
  const missing = rightsOf(grant).find((r) => !holds(holder, r));
  return missing ? describeRight(missing) : null;
}

/** The role a roles command leaves behind, or null for a delete (which gives nothing). */
function roleAfter(command: RolesCommand, state: RolesState): RoleState | null {
  if (command.type === 'DeleteRole') return null;
  const after = evolveAll(roles, state, roles.decide(command, state));
  const key = command.type === 'CreateRole' || command.type === 'UpdateRole' ? command.data.key : command.data.role;
  return own(after.roles, key) ?? null;
}

/** What the caller lacks to make the change (the whole role after it must be held), or null. Throws what the decider throws for a bad command. */
export function roleChangeRefusal(caller: Caller, command: RolesCommand, state: RolesState): string | null {
  const role = roleAfter(command, state);
  return role ? missingRight(holderOf(caller, state), grantOfRole(role)) : null;
}

/**
 * What the caller lacks to bind the key `target` (of `kind`, now bound to `current`) to
 * `role`, or null. No key changes its own role; binding to the role it has gives nothing new.
 */
export function bindingRefusal(caller: Caller, state: RolesState, bind: { readonly kind: KeyKind; readonly target: string | null; readonly current?: string | null | undefined; readonly role: string | null }): string | null {
  if (bind.current !== undefined && bind.current === bind.role) return null;
  if (caller.key !== null && bind.target === caller.key) return 'a change of its own role (no key changes its own role)';
  return missingRight(holderOf(caller, state), grantOf(bind.kind, bind.role, state));
}
