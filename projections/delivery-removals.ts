import type { DomainEvent } from '../domain/events.js';

/** Collections whose delivery documents an event removes all at once: a deleted collection's. */
export function removedFolders(event: DomainEvent): readonly { readonly env: string; readonly folder: string }[] {
  return event.type === 'CollectionDeleted' ? [{ env: event.data.env, folder: event.data.key }] : [];
}
