import type { StoredEvent } from '../../commands/ports.js';

/** Which events a replay sends (docs/decisions/0070); every given condition must hold. */
export type ReplayFilter = {
  /** Events of this environment only. */
  readonly env?: string;
  /** Exactly this stream. */
  readonly stream?: string;
  /** Streams whose name starts with this. */
  readonly streamPrefix?: string;
  /** The resource and revision events of this collection's resources. */
  readonly collection?: string;
  /** Only these event types. */
  readonly types?: ReadonlySet<string>;
};

const field = (event: StoredEvent, name: string): string | null => {
  const data = event.data as Record<string, unknown> | null;
  const value = data && typeof data === 'object' && Object.hasOwn(data, name) ? data[name] : undefined;
  return typeof value === 'string' ? value : null;
};

/** The environment an event belongs to: its `env`, or the environment it creates; null for organization-level events. */
export const environmentOf = (event: StoredEvent): string | null =>
  event.type === 'EnvironmentCreated' ? field(event, 'key') : field(event, 'env');

/** The organization an event names itself (organization, user, project, environment events), else null. */
export const ownOrganizationOf = (event: StoredEvent): string | null =>
  event.type === 'OrganizationCreated' ? field(event, 'key') : field(event, 'organization');

export function matchesReplay(filter: ReplayFilter, event: StoredEvent): boolean {
  if (filter.stream !== undefined && event.stream !== filter.stream) return false;
  if (filter.streamPrefix !== undefined && !event.stream.startsWith(filter.streamPrefix)) return false;
  if (filter.types && !filter.types.has(event.type)) return false;
  if (filter.env !== undefined && environmentOf(event) !== filter.env) return false;
  if (filter.collection !== undefined && !(event.stream.startsWith('resource-') && field(event, 'folder') === filter.collection)) return false;
  return true;
}

/** An event as a replay sends it: the stored event, raw. */
export const replayLine = (event: StoredEvent) => ({
  position: event.position,
  stream: event.stream,
  revision: event.revision,
  id: event.id,
  type: event.type,
  data: event.data,
  metadata: event.metadata,
});
