import type { PermissionFields } from './events.js';

/** What a management request needs: an action on a content type, on one object when it names one (docs/decisions/0061). */
export type ManagementNeed = { readonly content_type: string; readonly action: 'create' | 'read' | 'update' | 'delete'; readonly object: string | null };

/** POSTs that change an existing entity rather than create one. */
const UPDATING_POSTS = new Set(['publish', 'bearer-token', 'permissions', 'batch', 'objects', 'sync_component', 'rotate-secret', 'retry']);

function contentTypeOf(segments: readonly string[]): string | null {
  const [first, second] = segments;
  switch (first) {
    case 'collections':
    case 'folders':
      if (segments.includes('resources')) return 'resources';
      return segments.includes('model') ? 'schemas' : 'collections';
    case 'components':
      return segments.includes('model') ? 'schemas' : 'components';
    case 'locales':
      return 'locales';
    case 'api':
      return 'flux-apis';
    case 'events':
      return 'events';
    case 'webhooks':
      return 'webhooks';
    case 'schedules':
      return 'resources';
    case 'permissions':
      return second === 'management-api' ? 'management-api' : 'delivery-api';
    default:
      return null;
  }
}

/** The collection, component, API or locale a path names, or null for a list or a create. */
function objectOf(segments: readonly string[], key: string | undefined): string | null {
  const [first, second] = segments;
  if ((first === 'collections' || first === 'folders') && second === 'tree') return key ?? null;
  if (first === 'permissions') return segments[3] ?? null;
  return second ?? null;
}

/**
 * The need of a request to `/v1/:env/<segments>`: GET reads, POST creates (or updates,
 * for publish, validate, tokens and permission edits), PUT and PATCH update, DELETE deletes
 * (or updates, for a role's permissions and a key's token). null: not a guarded area.
 */
export function managementNeed(method: string, segments: readonly string[], key?: string): ManagementNeed | null {
  const content_type = contentTypeOf(segments);
  if (content_type === null) return null;
  const last = segments[segments.length - 1] ?? '';
  const inner = segments.includes('permissions', 1) || segments.includes('bearer-token') || last === 'schedule';
  let action: ManagementNeed['action'];
  if (method === 'GET' || method === 'HEAD' || last === 'validate') action = 'read';
  else if (method === 'POST') action = UPDATING_POSTS.has(last) ? 'update' : 'create';
  else if (method === 'DELETE') action = inner ? 'update' : 'delete';
  else action = 'update';
  return { content_type, action, object: objectOf(segments, key) };
}

/** Whether a role's permissions allow the need. Without all_objects, only requests naming a listed object pass. */
export function managementAllows(permissions: readonly PermissionFields[], need: ManagementNeed): boolean {
  const permission = permissions.find((p) => p.content_type === need.content_type);
  if (!permission || !permission.actions.includes(need.action)) return false;
  return permission.all_objects || (need.object !== null && permission.objects.includes(need.object));
}
