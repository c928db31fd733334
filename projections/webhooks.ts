import type { ReadModelProjection } from './read-model-target.js';
import { patch, put, remove } from './read-model-target.js';

/**
 * Webhooks of each environment, one document per webhook in `webhooks`:
 * `{key, env, url, description, event_types, collections, enabled, secret, created_at}`.
 * The secret is kept for the sender; the views never show it (docs/decisions/0354).
 */
export const webhooksProjection: ReadModelProjection = {
  indexes: { webhooks: [['env', 'created_at']] },
  changes: (event) => {
    switch (event.type) {
      case 'WebhookCreated':
        return [put('webhooks', event.data.key, { ...event.data, disabled_at: null })];
      case 'WebhookUpdated': {
        const { url, description, event_types, collections, enabled } = event.data;
        return [patch('webhooks', event.data.key, { url, description, event_types, collections, enabled, disabled_at: null })];
      }
      case 'WebhookSecretRotated':
        return [patch('webhooks', event.data.key, { secret: event.data.secret })];
      case 'WebhookDisabled':
        return [patch('webhooks', event.data.key, { enabled: false })];
      case 'WebhookDeleted':
        return [remove('webhooks', event.data.key)];
      default:
        return [];
    }
  },
};
