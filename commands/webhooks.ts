import { randomBytes } from 'node:crypto';
import { webhook, type WebhookCommand } from '../domain/webhook/decider.js';
import type { WebhookSettings } from '../domain/webhook/events.js';
import type { CommandBus } from './command-bus.js';
import type { CommandContext } from './context.js';
import { newKey } from './keys.js';
import type { EventMetadata } from './ports.js';
import { streams } from './streams.js';

/** A Standard Webhooks signing secret: `whsec_` and the base64 of 24 random bytes (docs/decisions/0354). */
export const newSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

const handle = (bus: CommandBus, key: string, command: WebhookCommand, metadata: EventMetadata) => bus.handle(webhook, streams.webhook(key), command, metadata);

export async function createWebhook(bus: CommandBus, ctx: CommandContext, settings: WebhookSettings, allowPrivate: boolean) {
  const key = newKey();
  const secret = newSecret();
  const handled = await bus.handleNew(
    webhook,
    streams.webhook(key),
    { type: 'CreateWebhook', data: { ...settings, env: ctx.env, key, secret, created_at: ctx.now, allow_private_networks: allowPrivate } },
    ctx.metadata,
  );
  return { ...handled, key, secret };
}

export const updateWebhook = (bus: CommandBus, ctx: CommandContext, key: string, changes: Partial<WebhookSettings>, allowPrivate: boolean) =>
  handle(bus, key, { type: 'UpdateWebhook', data: { env: ctx.env, key, changes, allow_private_networks: allowPrivate } }, ctx.metadata);

export async function rotateSecret(bus: CommandBus, ctx: CommandContext, key: string) {
  const secret = newSecret();
  return { ...(await handle(bus, key, { type: 'RotateSecret', data: { env: ctx.env, key, secret } }, ctx.metadata)), secret };
}

export const deleteWebhook = (bus: CommandBus, ctx: CommandContext, key: string) => handle(bus, key, { type: 'DeleteWebhook', data: { env: ctx.env, key } }, ctx.metadata);

/** Who turns off a webhook that keeps failing: the service itself (an audit entry with this actor). */
export const WEBHOOK_SENDER_ACTOR = { key: 'webhook-sender', name: 'webhook sender' } as const;

export const disableWebhook = (bus: CommandBus, env: string, key: string, failingSince: string, now: string) =>
  handle(bus, key, { type: 'DisableWebhook', data: { env, key, failing_since: failingSince } }, {
    actor_type: 'system',
    actor: WEBHOOK_SENDER_ACTOR,
    ip_address: null,
    referer: null,
    timestamp: now,
  });
