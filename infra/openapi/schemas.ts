/** JSON Schemas (2020-12, as OpenAPI 3.1 reads them) of the objects the interfaces answer with. */

type Json = Record<string, unknown>;

const str = { type: 'string' };
const strOrNull = { type: ['string', 'null'] };
const datetime = { type: 'string', format: 'date-time' };
const datetimeOrNull = { type: ['string', 'null'], format: 'date-time' };
const bool = { type: 'boolean' };
const int = { type: 'integer' };

/** An object with these fields required; more fields may be added later (clients ignore the rest). */
const object = (properties: Json, description: string): Json => ({ type: 'object', description, properties, required: Object.keys(properties) });

export const COMPONENT_SCHEMAS: Readonly<Record<string, Json>> = {
  Error: object(
    { message: str, error_code: str, detail: { type: ['object', 'array', 'null'] } },
    'Every error: a message for people (ending with the request id), a stable code, and details or null.',
  ),
  DeliveryApi: object(
    {
      key: str,
      name: str,
      description: str,
      environment: str,
      prefix: str,
      version: { const: '1' },
      is_auth_required: bool,
      mcp_enabled: bool,
      router_introspection_enabled: bool,
      cors_origins: { type: 'array', items: str },
      created_at: datetime,
    },
    'A delivery API.',
  ),
  Connection: object(
    {
      folder: str,
      api: str,
      allowed_methods: { type: 'array', items: { enum: ['get_many', 'get_one', 'create', 'update'] } },
      description_get_one: str,
      description_get_many: str,
      description_search: str,
      description_schema: str,
      created_at: datetime,
    },
    'A collection connected to a delivery API.',
  ),
  Collection: object(
    {
      key: str,
      name: str,
      alias: str,
      path: str,
      parent: strOrNull,
      content_type: str,
      strict_reference: bool,
      embedding_model: strOrNull,
      embedding_dimension: { type: ['integer', 'null'] },
      created_at: datetime,
    },
    'A collection (folder) of resources.',
  ),
  Component: object({ key: str, name: str, description: str, environment: str, content_type: str, created_at: datetime, current_version: strOrNull }, 'A reusable schema.'),
  Version: object(
    { key: str, version_number: { type: ['integer', 'null'] }, name: str, description: str, created_at: datetime, published_at: datetimeOrNull, archived_at: datetimeOrNull },
    'A schema version; `json_schema` too unless include_schema=false.',
  ),
  Resource: object(
    {
      key: str,
      name: strOrNull,
      folder: str,
      content_type: { const: 'document' },
      external_id: strOrNull,
      created_at: datetime,
      resource_owner: strOrNull,
      current_revision: strOrNull,
      vectors_size: int,
    },
    'A resource (one content item).',
  ),
  Revision: object(
    { key: str, resource: str, schema_version: strOrNull, number: int, size: int, status: { enum: ['draft', 'published', 'unpublished'] }, created_at: datetime, scheduled_publish_at: datetimeOrNull },
    'A revision of a resource.',
  ),
  Locale: object({ name: str, code: str, environment: str, is_default: bool, created_at: datetime }, 'A locale of the environment.'),
  Webhook: object(
    { key: str, url: str, description: str, event_types: { type: 'array', items: str }, collections: { type: 'array', items: str }, enabled: bool, created_at: datetime },
    'A webhook: where the environment\'s events are posted, signed per Standard Webhooks. `secret` (whsec_...) only in the answers of create and rotate-secret.',
  ),
  WebhookDelivery: object(
    {
      id: str,
      type: str,
      status: { enum: ['pending', 'delivered', 'failed'] },
      attempts: int,
      last_status_code: { type: ['integer', 'null'] },
      last_error: strOrNull,
      next_attempt_at: datetimeOrNull,
      delivered_at: datetimeOrNull,
    },
    'One event sent to one webhook: `id` is the event id, sent as `webhook-id` on every try.',
  ),
  Schedule: object({ revision: str, resource: str, collection: str, publish_at: datetime }, 'A revision the scheduler will publish at `publish_at`.'),
  Event: object(
    {
      key: str,
      timestamp: datetime,
      event_type: { enum: ['create', 'update', 'delete'] },
      entity_type: str,
      entity_key: str,
      actor_type: str,
      actor: { type: ['object', 'null'] },
      ip_address: strOrNull,
      referer: strOrNull,
      metadata: { type: ['object', 'null'] },
    },
    'An audit event.',
  ),
  AuditCheckpoint: object(
    {
      position: str,
      events: int,
      head_hash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
      time: datetime,
      signature: str,
      key: str,
    },
    'A signed head of the hash chain: the `events`-th event of the log, at `position`, has the chained hash `head_hash`. `signature` is the Ed25519 signature (base64) of the JSON text ["audit-checkpoint", position, events, head_hash, time]; `key` is the SHA-256 (hex) of the signing public key in DER.',
  ),
  AuditPublicKey: object({ algorithm: { const: 'Ed25519' }, key: str, public_key: str }, 'The public key (PEM, SubjectPublicKeyInfo) that checks the audit checkpoints, and its SHA-256 id.'),
  DeliveryItem: {
    type: 'object',
    description: 'A delivered resource: `_sys` always, `data` where the connection allows get_one.',
    properties: { _sys: object({ key: str, created_at: datetime, updated_at: datetime, folder: str }, 'System fields.'), data: { type: 'object' } },
    required: ['_sys'],
  },
  DeliveryPage: object(
    { limit: int, next: strOrNull, previous: strOrNull, results: { type: 'array', items: { $ref: '#/components/schemas/DeliveryItem' } } },
    'A page of a delivery list: fully qualified cursor URLs.',
  ),
  Health: object({ status: { const: 'ok' } }, 'The process answers.'),
  Readiness: object(
    {
      status: { enum: ['ready', 'not_ready'] },
      bootstrapped: bool,
      draining: bool,
      event_store: object({ reachable: bool, head: strOrNull, error: strOrNull }, 'The event store.'),
      max_lag: int,
      projections: {
        type: 'array',
        items: object({ name: str, position: str, lag: int, caught_up: bool, stopped: bool, error: { type: ['object', 'null'] } }, 'One projection.'),
      },
    },
    'Readiness: 200 when ready, 503 otherwise.',
  ),
};

export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/** The management list envelope around items of one schema. */
export const page = (item: string): Json =>
  object({ count: int, next: strOrNull, previous: strOrNull, results: { type: 'array', items: ref(item) } }, `A page of ${item} objects.`);
