import type { Doc } from '../projections/ports.js';

/** Roles and permissions as reads show them. Delivery roles have no `full_access`. */
export const roleView = (doc: Doc) => ({
  key: doc.key,
  name: doc.name,
  description: doc.description ?? '',
  ...(doc.kind === 'management' ? { full_access: doc.full_access === true } : {}),
  environment: doc.env,
  created_at: doc.created_at,
});

export const permissionView = (doc: Doc) => ({
  content_type: doc.content_type,
  actions: doc.actions,
  all_objects: doc.all_objects,
  objects: doc.objects ?? [],
});
