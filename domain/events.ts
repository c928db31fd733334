import type { ApiKeysEvent } from './api-keys/events.js';
import type { CollectionsEvent } from './collections/events.js';
import type { ComponentsEvent } from './components/events.js';
import type { DeliveryApisEvent } from './delivery-apis/events.js';
import type { LocalesEvent } from './locales/events.js';
import type { ExternalIdEvent } from './external-id/decider.js';
import type { EnvironmentEvent } from './environment/decider.js';
import type { OrganizationEvent } from './organization/decider.js';
import type { ProjectEvent } from './project/decider.js';
import type { ResourceEvent } from './resource/events.js';
import type { RolesEvent } from './roles/events.js';
import type { ResourceQuotaEvent } from './resource-quota/decider.js';
import type { SchemaEvent } from './schema/events.js';
import type { UserEvent } from './user/decider.js';
import type { WebhookEvent } from './webhook/events.js';

/** Every event any aggregate emits: projections switch over this union. */
export type DomainEvent =
  | OrganizationEvent
  | UserEvent
  | ProjectEvent
  | EnvironmentEvent
  | CollectionsEvent
  | ComponentsEvent
  | SchemaEvent
  | DeliveryApisEvent
  | ResourceEvent
  | ResourceQuotaEvent
  | ApiKeysEvent
  | RolesEvent
  | ExternalIdEvent
  | LocalesEvent
  | WebhookEvent;
