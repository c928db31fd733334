/** One audit-log entry, as the audit projections build it. */

export type Entry = {
  readonly scope: 'environment' | 'global';
  readonly env: string | null;
  readonly event_type: 'create' | 'update' | 'delete';
  readonly entity_type: string;
  readonly entity_key: string;
  readonly metadata: Record<string, unknown> | null;
  /** Relation filters of the list endpoints. */
  readonly relations: {
    readonly collection_key?: string | null;
    readonly resource_key?: string | null;
    readonly schema_key?: string | null;
    readonly api_key?: string | null;
    readonly project_key?: string | null;
    readonly organization?: string;
  };
};

export function envEntry(
  env: string,
  eventType: Entry['event_type'],
  entityType: string,
  entityKey: string,
  metadata: Record<string, unknown> | null,
  relations: Entry['relations'],
): Entry {
  return { scope: 'environment', env, event_type: eventType, entity_type: entityType, entity_key: entityKey, metadata, relations };
}

/** The fields of an audit-log document that `GET /v1/:env/events/` shows (and a webhook sends as `data`). */
export const AUDIT_VIEW_FIELDS = ['key', 'timestamp', 'event_type', 'entity_type', 'entity_key', 'actor_type', 'actor', 'ip_address', 'referer', 'metadata'] as const;

/** An audit-log document as the environment's audit list shows it. */
export function auditEntryView(doc: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const field of AUDIT_VIEW_FIELDS) view[field] = doc[field] === undefined ? null : doc[field];
  return view;
}
