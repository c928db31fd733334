import type { EnvironmentEvent } from '../domain/environment/events.js';
import type { OrganizationEvent } from '../domain/organization/events.js';
import type { ProjectEvent } from '../domain/project/events.js';
import type { UserEvent } from '../domain/user/decider.js';
import type { Entry } from './audit-entry.js';

/** Global audit entries: `customer`, `user`, `project` and `environment`, with the delete snapshots. */

type TenancyEvent = OrganizationEvent | UserEvent | ProjectEvent | EnvironmentEvent;

const global = (
  eventType: Entry['event_type'],
  entityType: 'customer' | 'user' | 'project' | 'environment',
  key: string,
  organization: string,
  metadata: Record<string, unknown> | null,
  project: string | null = null,
): Entry => ({
  scope: 'global',
  env: null,
  event_type: eventType,
  entity_type: entityType,
  entity_key: key,
  metadata,
  relations: { organization, project_key: project },
});

function environmentEntry(event: EnvironmentEvent): Entry {
  const { key, organization, project } = event.data;
  const meta = { project_key: project };
  switch (event.type) {
    case 'EnvironmentCreated':
      return global('create', 'environment', key, organization, meta, project);
    case 'EnvironmentUpdated':
      return global('update', 'environment', key, organization, meta, project);
    case 'EnvironmentToggled':
      return global('update', 'environment', key, organization, { ...meta, action: 'toggle', is_enabled: event.data.is_enabled }, project);
    case 'EnvironmentProtectionChanged':
      return global('update', 'environment', key, organization, { ...meta, action: 'protection', protection_level: event.data.protection_level }, project);
    case 'EnvironmentDeleted':
      return global('delete', 'environment', key, organization, { ...meta, snapshot: event.data.snapshot }, project);
  }
}

export function tenancyEntry(event: TenancyEvent): Entry | null {
  switch (event.type) {
    case 'OrganizationCreated':
      return global('create', 'customer', event.data.key, event.data.key, null);
    case 'OrganizationUpdated':
      return global('update', 'customer', event.data.key, event.data.key, null);
    case 'PlanChanged':
      return global('update', 'customer', event.data.key, event.data.key, { action: 'change_plan', plan: event.data.plan, previous_plan: event.data.previous });
    case 'UserCreated':
      return global('create', 'user', event.data.key, event.data.organization, null);
    case 'ProjectCreated':
      return global('create', 'project', event.data.key, event.data.organization, null, event.data.key);
    case 'ProjectUpdated':
      return global('update', 'project', event.data.key, event.data.organization, null, event.data.key);
    case 'ProjectDeleted':
      return global('delete', 'project', event.data.key, event.data.organization, { snapshot: event.data.snapshot }, event.data.key);
    case 'ProjectSlotsSeeded':
    case 'ProjectSlotReserved':
    case 'ProjectSlotReleased':
    case 'EnvironmentSlotsSeeded':
    case 'EnvironmentSlotReserved':
    case 'EnvironmentSlotReleased':
      return null;
    default:
      return environmentEntry(event);
  }
}
