import type { PermissionFields } from './events.js';

/** What a delivery key may do, from its role's permissions (docs/decisions/0061). */
export type DeliveryAction = 'read' | 'create' | 'update';

/**
 * `granted`: go on. `not_authorized`: the key is not authorized for the API at all (401).
 * `denied`: authorized for the API but not for this action or collection (403 access_denied).
 */
export type Access = 'granted' | 'not_authorized' | 'denied';

const covers = (p: PermissionFields, object: string): boolean => p.all_objects || p.objects.includes(object);

/**
 * A key without a role is unrestricted; a key whose role is gone reaches nothing. The
 * `flux-apis` permission names the APIs and actions; a `collections` permission, when the
 * role has one, further limits which collections the actions reach.
 */
export function deliveryAccess(
  role: { readonly permissions: readonly PermissionFields[] } | null | 'missing',
  api: string,
  folder: string | null,
  action: DeliveryAction,
): Access {
  if (role === null) return 'granted';
  if (role === 'missing') return 'not_authorized';
  const apis = role.permissions.find((p) => p.content_type === 'flux-apis');
  if (!apis || !covers(apis, api)) return 'not_authorized';
  if (!apis.actions.includes(action)) return 'denied';
  const collections = role.permissions.find((p) => p.content_type === 'collections');
  if (folder !== null && collections && (!covers(collections, folder) || !collections.actions.includes(action))) return 'denied';
  return 'granted';
}
