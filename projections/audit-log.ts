import type { StoredEvent } from '../commands/ports.js';
import type { DomainEvent } from '../domain/events.js';
import type { SchemaVersionDeleted, SchemaVersionUpdated } from '../domain/schema/events.js';
import { envEntry, type Entry } from './audit-entry.js';
import { apiKeyEntry, rolesEntry } from './audit-permissions.js';
import { resourceEntry } from './audit-resources.js';
import { tenancyEntry } from './audit-tenancy.js';
import { scheduleEntry, webhookEntry } from './audit-webhooks.js';
import type { ReadModelProjection } from './read-model-target.js';
import { put } from './read-model-target.js';

/**
 * The audit log: one entry per create, update or delete of an entity, with the
 * specification's entity types and metadata. Events that change no listed entity
 * (a field of a draft version) write no entry.
 */

function apiEntry(
  env: string,
  api: string,
  eventType: Entry['event_type'],
  metadata: Record<string, unknown> | null,
  folder: string | null = null,
): Entry {
  return envEntry(env, eventType, 'api', api, metadata, { api_key: api, collection_key: folder });
}

/** version:update of a draft's name or description, and version:delete with its snapshot. */
function versionEntry(event: SchemaVersionUpdated | SchemaVersionDeleted): Entry {
  const { env, schema_key, schema_type, key } = event.data;
  const collection = schema_type === 'collection';
  const owner = { schema_key: collection ? null : schema_key, schema_type, folder_key: collection ? schema_key : null };
  const relations = { schema_key, collection_key: collection ? schema_key : null };
  if (event.type === 'SchemaVersionUpdated') return envEntry(env, 'update', 'version', key, owner, relations);
  return envEntry(env, 'delete', 'version', key, { ...owner, snapshot: event.data.snapshot }, relations);
}

export function entryFor(event: DomainEvent): Entry | null {
  switch (event.type) {
    case 'OrganizationCreated':
    case 'OrganizationUpdated':
    case 'PlanChanged':
    case 'ProjectSlotsSeeded':
    case 'ProjectSlotReserved':
    case 'ProjectSlotReleased':
    case 'EnvironmentSlotsSeeded':
    case 'UserCreated':
    case 'ProjectCreated':
    case 'ProjectUpdated':
    case 'ProjectDeleted':
    case 'EnvironmentSlotReserved':
    case 'EnvironmentSlotReleased':
    case 'EnvironmentCreated':
    case 'EnvironmentUpdated':
    case 'EnvironmentToggled':
    case 'EnvironmentProtectionChanged':
    case 'EnvironmentDeleted':
      return tenancyEntry(event);
    case 'CollectionCreated':
      return envEntry(event.data.env, 'create', 'collection', event.data.key, { parent_key: event.data.parent }, { collection_key: event.data.key });
    case 'ComponentCreated':
      return envEntry(event.data.env, 'create', 'component', event.data.key, null, { schema_key: event.data.key });
    case 'ComponentUpdated':
      return envEntry(event.data.env, 'update', 'component', event.data.key, null, { schema_key: event.data.key });
    case 'ComponentDeleted':
      return envEntry(event.data.env, 'delete', 'component', event.data.key, { snapshot: event.data.snapshot }, { schema_key: event.data.key });
    case 'CollectionUpdated':
      return envEntry(event.data.env, 'update', 'collection', event.data.key, {
        parent_key: event.data.parent,
        previous_parent_key: event.data.previous_parent,
      }, { collection_key: event.data.key });
    case 'CollectionDeleted':
      return envEntry(event.data.env, 'delete', 'collection', event.data.key, { parent_key: event.data.parent, snapshot: event.data.snapshot }, { collection_key: event.data.key });
    case 'LocaleCreated':
    case 'LocaleUpdated': {
      const { env, code, name, is_default } = event.data;
      return envEntry(env, event.type === 'LocaleCreated' ? 'create' : 'update', 'locale', code, { code, name, is_default }, {});
    }
    case 'LocaleDeleted':
      return envEntry(event.data.env, 'delete', 'locale', event.data.code, { ...event.data.snapshot, snapshot: event.data.snapshot }, {});
    case 'SchemaVersionCreated':
    case 'SchemaVersionPublished': {
      const { env, schema_key, schema_type } = event.data;
      const collection = schema_type === 'collection';
      const owner = { schema_key: collection ? null : schema_key, schema_type, folder_key: collection ? schema_key : null };
      const created = event.type === 'SchemaVersionCreated';
      return {
        scope: 'environment',
        env,
        event_type: created ? 'create' : 'update',
        entity_type: 'version',
        entity_key: created ? event.data.key : event.data.version,
        metadata: created ? owner : { action: 'publish', ...owner },
        relations: { schema_key, collection_key: collection ? schema_key : null },
      };
    }
    case 'SchemaVersionUpdated':
    case 'SchemaVersionDeleted':
      return versionEntry(event);
    case 'SchemaFieldCreated':
    case 'SchemaFieldUpdated':
    case 'SchemaFieldDeleted':
    case 'ExternalIdClaimed':
    case 'ResourceSlotsSeeded':
    case 'ResourceSlotReserved':
    case 'ResourceSlotReleased':
    case 'CollectionSlotsReleased':
      return null;
    case 'ApiCreated':
      return envEntry(event.data.env, 'create', 'api', event.data.key, null, { api_key: event.data.key });
    case 'ApiUpdated':
      return apiEntry(event.data.env, event.data.key, 'update', null);
    case 'ApiDeleted':
      return apiEntry(event.data.env, event.data.key, 'delete', { snapshot: event.data.snapshot });
    case 'CollectionConnected':
    case 'ConnectionUpdated':
      return apiEntry(event.data.env, event.data.api, 'update', {
        action: event.type === 'CollectionConnected' ? 'connect' : 'update_permissions',
        folder_key: event.data.folder,
        allowed_methods: [...event.data.allowed_methods],
      }, event.data.folder);
    case 'CollectionDisconnected':
      return apiEntry(event.data.env, event.data.api, 'update', { action: 'disconnect', folder_key: event.data.folder }, event.data.folder);
    case 'ResourceCreated':
      return envEntry(event.data.env, 'create', 'resource', event.data.key, { folder_key: event.data.folder }, { collection_key: event.data.folder, resource_key: event.data.key });
    case 'ApiKeyCreated':
    case 'ApiKeyUpdated':
    case 'ApiKeyDeleted':
    case 'BearerTokenIssued':
    case 'BearerTokenRevoked':
      return apiKeyEntry(event);
    case 'RoleCreated':
    case 'RoleUpdated':
    case 'RoleDeleted':
    case 'PermissionCreated':
    case 'PermissionUpdated':
    case 'PermissionDeleted':
      return rolesEntry(event);
    case 'ResourceUpdated':
      return envEntry(event.data.env, 'update', 'resource', event.data.key, { folder_key: event.data.folder }, { collection_key: event.data.folder, resource_key: event.data.key });
    case 'RevisionCreated':
      return envEntry(event.data.env, 'create', 'revision', event.data.key, { folder_key: event.data.folder, resource_key: event.data.resource }, { collection_key: event.data.folder, resource_key: event.data.resource });
    case 'RevisionUpdated':
      return envEntry(event.data.env, 'update', 'revision', event.data.key, { folder_key: event.data.folder, resource_key: event.data.resource }, { collection_key: event.data.folder, resource_key: event.data.resource });
    case 'RevisionScheduled':
    case 'RevisionScheduleCancelled':
      return scheduleEntry(event);
    case 'WebhookCreated':
    case 'WebhookUpdated':
    case 'WebhookSecretRotated':
    case 'WebhookDisabled':
    case 'WebhookDeleted':
      return webhookEntry(event);
    case 'RevisionPublished':
    case 'RevisionUnpublished':
    case 'RevisionDeleted':
    case 'ResourceDeleted':
      return resourceEntry(event);
  }
}

/** The audit entry key: the event's own id, without dashes. */
export const auditKey = (stored: StoredEvent): string => stored.id.replace(/-/g, '');

export const auditLogProjection: ReadModelProjection = {
  indexes: { audit_events: [['scope', 'env', '_position'], ['scope', '_position']] },
  changes: (event, stored) => {
    const doc = auditDoc(event, stored);
    return doc === null ? [] : [put('audit_events', doc.key, doc)];
  },
};

/**
 * The audit-log document of an event (what `GET /v1/:env/events/` lists, through `auditView`), or
 * null for an event that changes no listed entity. Webhooks send the same entry (docs/decisions/0355).
 */
export function auditDoc(event: DomainEvent, stored: StoredEvent): ({ readonly key: string } & Record<string, unknown>) | null {
  const entry = entryFor(event);
  if (!entry) return null;
  const { metadata: meta } = stored;
  const actor = meta.actor;
  const key = auditKey(stored);
  return {
    key,
    scope: entry.scope,
    env: entry.env,
    timestamp: meta.timestamp,
    event_type: entry.event_type,
    entity_type: entry.entity_type,
    entity_key: entry.entity_key,
    actor_type: meta.actor_type === 'apikey' ? 'apikey' : 'user',
    actor,
    actor_key: actor && typeof actor.key === 'string' ? actor.key : null,
    ip_address: meta.ip_address,
    referer: meta.referer,
    metadata: entry.metadata,
    ...entry.relations,
  };
}
