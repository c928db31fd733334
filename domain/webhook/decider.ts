import type { Decider, Message } from '../decider.js';
import { DomainError, notFound } from '../errors.js';
import type { WebhookEvent, WebhookFields, WebhookSettings } from './events.js';
import { urlRefusal } from './address.js';
import { evolve, type WebhookState } from './state.js';

/** One webhook: where the events of an environment are posted (docs/decisions/0353). */

type Ref = { readonly env: string; readonly key: string };

/** `allow_private_networks`: WEBHOOK_ALLOW_PRIVATE_NETWORKS, the service's setting (docs/decisions/0356). */
type Reach = { readonly allow_private_networks: boolean };
export type CreateWebhook = Message<'CreateWebhook', WebhookFields & Reach>;
/** PUT: the settings sent replace theirs; those left out keep their values. */
export type UpdateWebhook = Message<'UpdateWebhook', Ref & Reach & { readonly changes: Partial<WebhookSettings> }>;
export type RotateSecret = Message<'RotateSecret', Ref & { readonly secret: string }>;
/** The sender's: the webhook has failed every delivery since `failing_since`. */
export type DisableWebhook = Message<'DisableWebhook', Ref & { readonly failing_since: string }>;
export type DeleteWebhook = Message<'DeleteWebhook', Ref>;
export type WebhookCommand = CreateWebhook | UpdateWebhook | RotateSecret | DisableWebhook | DeleteWebhook;

export type { WebhookState } from './state.js';

function existing(state: WebhookState, env: string): Extract<WebhookState, { status: 'active' }> {
  if (state.status !== 'active' || state.env !== env) throw notFound('webhook_not_found', 'Webhook');
  return state;
}

function refuseUrl(url: string, allowPrivate: boolean): void {
  const refusal = urlRefusal(url, allowPrivate);
  if (refusal !== null) throw new DomainError('validation_error', `The webhook URL ${refusal}.`, { url: [refusal] });
}

const settingsOf = ({ url, description, event_types, collections, enabled }: WebhookSettings): WebhookSettings => ({ url, description, event_types, collections, enabled });

function decide(command: WebhookCommand, state: WebhookState): WebhookEvent[] {
  const { data } = command;
  switch (command.type) {
    case 'CreateWebhook': {
      if (state.status !== 'none') throw new DomainError('validation_error', 'The webhook key exists already.');
      const { allow_private_networks, ...fields } = command.data;
      refuseUrl(fields.url, allow_private_networks);
      return [{ type: 'WebhookCreated', data: fields }];
    }
    case 'UpdateWebhook': {
      const next = settingsOf({ ...settingsOf(existing(state, data.env)), ...command.data.changes });
      refuseUrl(next.url, command.data.allow_private_networks);
      return [{ type: 'WebhookUpdated', data: { env: data.env, key: data.key, ...next } }];
    }
    case 'RotateSecret':
      existing(state, data.env);
      return [{ type: 'WebhookSecretRotated', data: { env: data.env, key: data.key, secret: command.data.secret } }];
    case 'DisableWebhook':
      // Already off (or gone): nothing to record, so a second sender's decision appends nothing.
      if (state.status !== 'active' || !state.enabled) return [];
      return [{ type: 'WebhookDisabled', data: { env: data.env, key: data.key, failing_since: command.data.failing_since } }];
    case 'DeleteWebhook': {
      const current = existing(state, data.env);
      return [{ type: 'WebhookDeleted', data: { env: data.env, key: data.key, snapshot: settingsOf(current) } }];
    }
  }
}

export const webhook: Decider<WebhookState, WebhookCommand, WebhookEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
};
