import type { PermissionFields } from './events.js';

/**
 * Which management permission lets a caller read the entity an environment event is about
 * (docs/decisions/0160): its content type, and the event field that names the object a
 * permission without `all_objects` lists (the same object a read request of that entity
 * names in its path, docs/decisions/0061).
 */
export type EntityScope = { readonly content_type: string; readonly object_field: string };

export const EVENT_ENTITY_SCOPES: Readonly<Record<string, EntityScope>> = {
  collection: { content_type: 'collections', object_field: 'entity_key' },
  resource: { content_type: 'resources', object_field: 'collection_key' },
  revision: { content_type: 'resources', object_field: 'collection_key' },
  component: { content_type: 'components', object_field: 'entity_key' },
  version: { content_type: 'schemas', object_field: 'schema_key' },
  api: { content_type: 'flux-apis', object_field: 'entity_key' },
  locale: { content_type: 'locales', object_field: 'entity_key' },
  manageapikey: { content_type: 'management-api', object_field: 'entity_key' },
  envrole: { content_type: 'management-api', object_field: 'entity_key' },
  managepermissionrole: { content_type: 'management-api', object_field: 'metadata.role_key' },
  deliveryapikey: { content_type: 'delivery-api', object_field: 'entity_key' },
  deliveryrole: { content_type: 'delivery-api', object_field: 'entity_key' },
  deliverypermissionrole: { content_type: 'delivery-api', object_field: 'metadata.role_key' },
  webhook: { content_type: 'webhooks', object_field: 'entity_key' },
};

/** Events of these entity types are visible: all of them (`objects` null), or those whose `object_field` is listed. */
export type VisibleEntities = {
  readonly entity_types: readonly string[];
  readonly object_field: string;
  readonly objects: readonly string[] | null;
};

/** What a role's permissions let it see of the environment events: one entry per readable (entity type group, object field). */
export function visibleEntities(permissions: readonly PermissionFields[]): VisibleEntities[] {
  const groups = new Map<string, { entity_types: string[]; object_field: string; objects: readonly string[] | null }>();
  for (const [entityType, scope] of Object.entries(EVENT_ENTITY_SCOPES)) {
    const permission = permissions.find((p) => p.content_type === scope.content_type);
    if (!permission || !permission.actions.includes('read')) continue;
    if (!permission.all_objects && permission.objects.length === 0) continue;
    const id = `${scope.content_type} ${scope.object_field}`;
    const group = groups.get(id) ?? { entity_types: [], object_field: scope.object_field, objects: permission.all_objects ? null : permission.objects };
    group.entity_types.push(entityType);
    groups.set(id, group);
  }
  return [...groups.values()];
}
