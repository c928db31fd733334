import type { RevisionScheduleCancelled, RevisionScheduled } from '../domain/resource/events.js';
import type { WebhookEvent } from '../domain/webhook/events.js';
import { envEntry, type Entry } from './audit-entry.js';

/** Webhook changes (entity type `webhook`); the signing secret is never in an entry. */
export function webhookEntry(event: WebhookEvent): Entry {
  const { env, key } = event.data;
  switch (event.type) {
    case 'WebhookCreated':
    case 'WebhookUpdated': {
      const { url, description, event_types, collections, enabled } = event.data;
      return envEntry(env, event.type === 'WebhookCreated' ? 'create' : 'update', 'webhook', key, { url, description, event_types, collections, enabled }, {});
    }
    case 'WebhookSecretRotated':
      return envEntry(env, 'update', 'webhook', key, { action: 'rotate_secret' }, {});
    case 'WebhookDisabled':
      return envEntry(env, 'update', 'webhook', key, { action: 'disable', failing_since: event.data.failing_since }, {});
    case 'WebhookDeleted':
      return envEntry(env, 'delete', 'webhook', key, { snapshot: event.data.snapshot }, {});
  }
}

/** A schedule set or removed changes the revision (revision:update, docs/decisions/0357). */
export function scheduleEntry(event: RevisionScheduled | RevisionScheduleCancelled): Entry {
  const { env, folder, resource, key } = event.data;
  const metadata =
    event.type === 'RevisionScheduled'
      ? { action: 'schedule_publish', folder_key: folder, resource_key: resource, publish_at: event.data.publish_at }
      : { action: 'cancel_schedule', folder_key: folder, resource_key: resource, reason: event.data.reason };
  return envEntry(env, 'update', 'revision', key, metadata, { collection_key: folder, resource_key: resource });
}
