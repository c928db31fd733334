import type { PermissionFields } from '../domain/roles/events.js';
import { visibleEntities } from '../domain/roles/event-visibility.js';
import type { Filter, ReadStore } from '../projections/ports.js';
import type { Principal } from '../api/principal.js';

/**
 * The permissions that limit what a management caller reads, or null when nothing does:
 * users, keys without a role and keys whose role has full access (docs/decisions/0061).
 * A key whose role is gone (or is not a management role of its environment) has none.
 */
export async function managementRestriction(store: ReadStore, principal: Principal): Promise<readonly PermissionFields[] | null> {
  const roleKey = principal.actor_type === 'apikey' ? principal.actor.role : null;
  if (typeof roleKey !== 'string') return null;
  const role = await store.collection('roles').get(roleKey);
  if (!role || role.kind !== 'management' || role.env !== principal.environment) return [];
  if (role.full_access === true) return null;
  const docs = await store.collection('role_permissions').find({ role: roleKey });
  return docs.map((p) => ({
    content_type: p.content_type as string,
    actions: (p.actions as string[]) ?? [],
    all_objects: p.all_objects === true,
    objects: (p.objects as string[]) ?? [],
  }));
}

/**
 * The condition an environment event must meet to be shown to the caller (docs/decisions/0160),
 * or null when the caller sees every event. It is part of the list query, so `count` and the
 * pages count only visible events.
 */
export async function visibleEventsFilter(store: ReadStore, principal: Principal): Promise<Filter | null> {
  const permissions = await managementRestriction(store, principal);
  if (permissions === null) return null;
  return {
    $or: visibleEntities(permissions).map((v) => ({
      entity_type: { $in: v.entity_types },
      ...(v.objects === null ? {} : { [v.object_field]: { $in: v.objects } }),
    })),
  };
}
