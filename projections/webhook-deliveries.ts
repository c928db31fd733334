import type { StoredEvent } from '../commands/ports.js';
import type { DomainEvent } from '../domain/events.js';
import { auditEntryView } from './audit-entry.js';
import { auditDoc } from './audit-log.js';
import type { Doc, ReadCollection, ReadStore, ReadStoreTx } from './ports.js';

/**
 * The webhook reactor's tables (docs/decisions/0355), in the read store but owned by the reactor's
 * consumer (`webhooks`), written with its checkpoint:
 * - `webhook_targets`: each webhook as of the reactor's position in the log (where, which events, the secret);
 * - `webhook_deliveries`: one row per event per webhook it matched, which the sender drains.
 * The sender changes a delivery's status fields and keeps `webhook_health` (failing since when).
 */
export const TABLES = { targets: 'webhook_targets', deliveries: 'webhook_deliveries', health: 'webhook_health' } as const;

export const INDEXES: Readonly<Record<string, readonly (readonly string[])[]>> = {
  [TABLES.targets]: [['env']],
  [TABLES.deliveries]: [['webhook', 'position'], ['status', 'next_attempt_at'], ['webhook', 'order_key', 'status', 'position']],
};

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export const deliveryId = (webhook: string, event: string): string => `${webhook}.${event}`;

/** What the audit list shows of an event, as the body a webhook receives: `{type, timestamp, data}`. */
export function deliveryBody(doc: Readonly<Record<string, unknown>>): string {
  return JSON.stringify({ type: `${String(doc.entity_type)}.${String(doc.event_type)}`, timestamp: doc.timestamp, data: auditEntryView(doc) });
}

/** Whether a webhook takes an audit entry: its event types ([] every one) and collections ([] every one). */
export function matches(target: Doc, entry: Readonly<Record<string, unknown>>): boolean {
  const types = target.event_types as readonly string[];
  const collections = target.collections as readonly string[];
  if (types.length > 0 && !types.includes(`${String(entry.entity_type)}.${String(entry.event_type)}`)) return false;
  return collections.length === 0 || (typeof entry.collection_key === 'string' && collections.includes(entry.collection_key));
}

/** Keeps `webhook_targets` in step with the webhook events. */
async function followTarget(tx: ReadStoreTx, event: DomainEvent): Promise<void> {
  const targets = tx.collection(TABLES.targets);
  switch (event.type) {
    case 'WebhookCreated': {
      const { env, key, url, secret, event_types, collections, enabled } = event.data;
      await targets.upsert({ _id: key, env, url, secret, event_types, collections, enabled });
      await tx.collection(TABLES.health).delete(key);
      return;
    }
    case 'WebhookUpdated': {
      const current = await targets.get(event.data.key);
      const { url, event_types, collections, enabled } = event.data;
      if (current) await targets.upsert({ ...current, url, event_types, collections, enabled });
      await tx.collection(TABLES.health).delete(event.data.key);
      return;
    }
    case 'WebhookSecretRotated': {
      const current = await targets.get(event.data.key);
      if (current) await targets.upsert({ ...current, secret: event.data.secret });
      return;
    }
    case 'WebhookDisabled': {
      const current = await targets.get(event.data.key);
      if (current) await targets.upsert({ ...current, enabled: false });
      return;
    }
    case 'WebhookDeleted':
      await targets.delete(event.data.key);
      await tx.collection(TABLES.deliveries).deleteMany({ webhook: event.data.key });
      await tx.collection(TABLES.health).delete(event.data.key);
      return;
    default:
      return;
  }
}

/**
 * One event into the tables: a pending delivery for each enabled webhook of the event's
 * environment that takes it. A row already there (a replayed batch) is left as it is.
 * Returns how many deliveries it added.
 */
export async function fillDeliveries(tx: ReadStoreTx, event: DomainEvent, stored: StoredEvent): Promise<number> {
  await followTarget(tx, event);
  const entry = auditDoc(event, stored);
  if (entry === null || entry.scope !== 'environment' || typeof entry.env !== 'string') return 0;
  const deliveries = tx.collection(TABLES.deliveries);
  let added = 0;
  for (const target of await tx.collection(TABLES.targets).find({ env: entry.env, enabled: true })) {
    if (!matches(target, entry)) continue;
    const id = deliveryId(target._id, stored.id);
    if (await deliveries.get(id)) continue;
    await deliveries.upsert({
      _id: id,
      webhook: target._id,
      event: stored.id,
      position: stored.position,
      // In log order per resource: an entity's deliveries wait for its earlier ones.
      order_key: typeof entry.resource_key === 'string' ? `resource:${entry.resource_key}` : `${String(entry.entity_type)}:${entry.entity_key as string}`,
      type: `${String(entry.entity_type)}.${String(entry.event_type)}`,
      body: deliveryBody(entry),
      status: 'pending' satisfies DeliveryStatus,
      attempts: 0,
      last_status_code: null,
      last_error: null,
      next_attempt_at: stored.metadata.timestamp,
      delivered_at: null,
    });
    added++;
  }
  return added;
}

/** `POST .../deliveries/:id/retry/`: the delivery is pending again, due now; null when there is no such delivery. */
export async function retryDelivery(store: ReadStore, id: string, now: string): Promise<Doc | null> {
  const deliveries: ReadCollection = store.collection(TABLES.deliveries);
  const doc = await deliveries.get(id);
  if (!doc) return null;
  const next = { ...doc, status: 'pending', next_attempt_at: now };
  await deliveries.upsert(next);
  return next;
}
