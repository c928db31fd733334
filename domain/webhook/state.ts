import type { WebhookEvent, WebhookFields } from './events.js';

export type WebhookState =
  | { readonly status: 'none' }
  | ({ readonly status: 'active' } & WebhookFields)
  | { readonly status: 'deleted'; readonly env: string; readonly key: string };

export function evolve(state: WebhookState, event: WebhookEvent): WebhookState {
  switch (event.type) {
    case 'WebhookCreated':
      return { status: 'active', ...event.data };
    case 'WebhookUpdated':
      return state.status === 'active' ? { ...state, ...event.data } : state;
    case 'WebhookSecretRotated':
      return state.status === 'active' ? { ...state, secret: event.data.secret } : state;
    case 'WebhookDisabled':
      return state.status === 'active' ? { ...state, enabled: false } : state;
    case 'WebhookDeleted':
      return { status: 'deleted', env: event.data.env, key: event.data.key };
  }
}
