import type { Message } from '../decider.js';

/** What a webhook's owner sets: where events go and which ones. */
export type WebhookSettings = {
  readonly url: string;
  readonly description: string;
  /** `<entity_type>.<event_type>` of the audit log; [] is every type. */
  readonly event_types: readonly string[];
  /** Only these collections' own events and their resources' and revisions'; [] is every event. */
  readonly collections: readonly string[];
  readonly enabled: boolean;
};

export type WebhookFields = WebhookSettings & {
  readonly env: string;
  readonly key: string;
  /** `whsec_<base64 of 24 random bytes>`: the Standard Webhooks signing secret (docs/decisions/0354). */
  readonly secret: string;
  readonly created_at: string;
};

export type WebhookCreated = Message<'WebhookCreated', WebhookFields>;
/** The settings after a PUT (the secret does not change). */
export type WebhookUpdated = Message<'WebhookUpdated', WebhookSettings & { readonly env: string; readonly key: string }>;
export type WebhookSecretRotated = Message<'WebhookSecretRotated', { readonly env: string; readonly key: string; readonly secret: string }>;
/** Turned off by the delivery sender after failing since `failing_since` (docs/decisions/0355). */
export type WebhookDisabled = Message<'WebhookDisabled', { readonly env: string; readonly key: string; readonly failing_since: string }>;
export type WebhookDeleted = Message<'WebhookDeleted', { readonly env: string; readonly key: string; readonly snapshot: WebhookSettings }>;

export type WebhookEvent = WebhookCreated | WebhookUpdated | WebhookSecretRotated | WebhookDisabled | WebhookDeleted;
