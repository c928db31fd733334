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
