import type { Doc } from '../projections/ports.js';

/** A webhook as reads show it: never its secret (shown once, at create and rotate: docs/decisions/0354). */
export const webhookView = (doc: Doc) => ({
  key: doc._id,
  url: doc.url,
  description: doc.description,
  event_types: doc.event_types,
  collections: doc.collections,
  enabled: doc.enabled,
  created_at: doc.created_at,
});

/** One delivery of one event to one webhook (the sender's record, docs/decisions/0355). */
export const deliveryView = (doc: Doc) => ({
  id: doc.event,
  type: doc.type,
  status: doc.status,
  attempts: doc.attempts,
  last_status_code: doc.last_status_code ?? null,
  last_error: doc.last_error ?? null,
  next_attempt_at: doc.next_attempt_at ?? null,
  delivered_at: doc.delivered_at ?? null,
});

/** A scheduled publish as `GET /v1/:env/schedules/` lists it. */
export const scheduleView = (doc: Doc) => ({
  revision: doc.revision,
  resource: doc.resource,
  collection: doc.folder,
  publish_at: doc.publish_at,
});
