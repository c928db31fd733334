import type { StoredEvent } from '../../commands/ports.js';
import type { DomainEvent } from '../../domain/events.js';
import type { PermissionFields } from '../../domain/roles/events.js';
import { visibleEntities } from '../../domain/roles/event-visibility.js';
import { entryFor } from '../../projections/audit-log.js';
import { asDomainEvent } from '../../projections/read-model-target.js';

/** What a raw event is about, in the fields the audit log gives its entry. */
type Subject = { readonly entity_type: string; readonly fields: Readonly<Record<string, unknown>> };

/**
 * The entity a raw event changes: its audit entry's, or for the events that make no entry of
 * their own, the entity they belong to (a draft's fields: its version; an unpublish: the
 * revision). Anything else (reservations, counters, tenancy) has none.
 */
function subjectOf(event: DomainEvent): Subject | null {
  const entry = entryFor(event);
  if (entry !== null) {
    if (entry.scope !== 'environment') return null;
    return { entity_type: entry.entity_type, fields: { entity_key: entry.entity_key, ...entry.relations, metadata: entry.metadata } };
  }
  switch (event.type) {
    case 'SchemaFieldCreated':
    case 'SchemaFieldUpdated':
    case 'SchemaFieldDeleted':
      return { entity_type: 'version', fields: { schema_key: event.data.schema_key } };
    case 'RevisionUnpublished':
      return { entity_type: 'revision', fields: { collection_key: event.data.folder } };
    default:
      return null;
  }
}

const valueAt = (fields: Readonly<Record<string, unknown>>, path: string): unknown =>
  path.split('.').reduce<unknown>((value, name) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined), fields);

/** Whether a role with these permissions may see a raw event: the same rule as the event list (docs/decisions/0160). */
export function replayVisibility(permissions: readonly PermissionFields[]): (event: StoredEvent) => boolean {
  const groups = visibleEntities(permissions);
  return (stored) => {
    const subject = subjectOf(asDomainEvent(stored));
    if (subject === null) return false;
    return groups.some((g) => g.entity_types.includes(subject.entity_type) && (g.objects === null || g.objects.includes(String(valueAt(subject.fields, g.object_field)))));
  };
}

const HASHES = ['secret_hash', 'token_hash'];

/** An event as a key's replay shows it: without the hashes of secrets and tokens. */
export function withoutHashes(event: StoredEvent): StoredEvent {
  const data = event.data as Record<string, unknown> | null;
  if (!data || typeof data !== 'object' || !HASHES.some((name) => Object.hasOwn(data, name))) return event;
  const copy: Record<string, unknown> = { ...data };
  for (const name of HASHES) if (Object.hasOwn(copy, name)) copy[name] = null;
  return { ...event, data: copy };
}
