import { page, ref } from './schemas.js';

/** What one route answers on success: matched like request schemas, by method and path suffix. */
export type ResponseEntry = {
  readonly method: string;
  readonly path: string;
  readonly status: string;
  readonly description: string;
  readonly schema?: Record<string, unknown>;
  /** Default application/json. */
  readonly type?: string;
  /** A management page: `limit` and `offset` are documented. */
  readonly paged?: boolean;
};

const list = (path: string, item: string): ResponseEntry => ({ method: 'GET', path, status: '200', description: `A page of ${item} objects.`, schema: page(item), paged: true });
const one = (method: string, path: string, item: string, status = '200'): ResponseEntry => ({ method, path, status, description: `The ${item}.`, schema: ref(item) });

/**
 * Success answers of the routes this table knows; a route it does not know is documented
 * with a generic JSON success. Every route also answers errors in the Error envelope.
 */
export const RESPONSES: readonly ResponseEntry[] = [
  { method: 'GET', path: '/healthz', status: '200', description: 'The process answers.', schema: ref('Health') },
  { method: 'GET', path: '/readyz', status: '200', description: 'Ready (503 with the same body when not).', schema: ref('Readiness') },
  { method: 'GET', path: '/metrics', status: '200', description: 'Prometheus metrics, text exposition format.', schema: { type: 'string' }, type: 'text/plain' },
  { method: 'GET', path: '/openapi.json', status: '200', description: 'This document.', schema: { type: 'object' } },
  { method: 'GET', path: '/docs/standalone.js', status: '200', description: 'The reference page script (from the installed npm package).', schema: { type: 'string' }, type: 'text/javascript' },
  { method: 'GET', path: '/docs/', status: '200', description: 'The interactive API reference page.', schema: { type: 'string' }, type: 'text/html' },
  list('/api/', 'DeliveryApi'),
  one('POST', '/api/', 'DeliveryApi', '201'),
  one('GET', '/api/:api/', 'DeliveryApi'),
  one('PUT', '/api/:api/', 'DeliveryApi'),
  one('PATCH', '/api/:api/', 'DeliveryApi'),
  list('/api/:api/collections/', 'Connection'),
  list('/api/:api/folders/', 'Connection'),
  one('POST', '/api/:api/collections/', 'Connection', '201'),
  one('GET', '/api/:api/collections/:collection/', 'Connection'),
  one('PUT', '/api/:api/collections/:collection/', 'Connection'),
  list('/collections/tree/', 'Collection'),
  list('/folders/tree/', 'Collection'),
  one('POST', '/collections/tree/', 'Collection', '201'),
  one('GET', '/collections/tree/collection/', 'Collection'),
  list('/components/', 'Component'),
  one('POST', '/components/', 'Component', '201'),
  one('GET', '/components/:component/', 'Component'),
  list('/model/versions/', 'Version'),
  one('POST', '/model/versions/', 'Version', '201'),
  one('GET', '/model/versions/:version/', 'Version'),
  one('PUT', '/model/versions/:version/', 'Version'),
  one('POST', '/model/versions/:version/publish/', 'Version'),
  {
    method: 'POST',
    path: '/sync_component/',
    status: '200',
    description: 'Which nested fields moved to newer component versions, which were skipped and why, and the new published version (null when nothing moved).',
    schema: {
      type: 'object',
      required: ['synced_paths', 'skipped', 'schema_version'],
      properties: {
        synced_paths: { type: 'array', items: { type: 'string' } },
        skipped: { type: 'array', items: { type: 'object', required: ['path', 'reason'], properties: { path: { type: 'string' }, reason: { type: 'string' } } } },
        schema_version: { type: ['string', 'null'] },
      },
    },
  },
  list('/revisions/', 'Revision'),
  one('GET', '/revisions/:revision/', 'Revision'),
  one('PUT', '/revisions/:revision/', 'Revision'),
  one('POST', '/revisions/', 'Revision', '201'),
  list('/resources/', 'Resource'),
  one('POST', '/resources/', 'Resource', '201'),
  one('GET', '/resources/:resource/', 'Resource'),
  one('PUT', '/resources/:resource/', 'Resource'),
  { method: 'GET', path: '/locales/', status: '200', description: 'Every locale of the environment, oldest first: a bare array.', schema: { type: 'array', items: ref('Locale') } },
  one('POST', '/locales/', 'Locale', '201'),
  one('GET', '/locales/:code/', 'Locale'),
  one('PUT', '/locales/:code/', 'Locale'),
  list('/webhooks/', 'Webhook'),
  one('POST', '/webhooks/', 'Webhook', '201'),
  one('GET', '/webhooks/:key/', 'Webhook'),
  one('PUT', '/webhooks/:key/', 'Webhook'),
  one('POST', '/webhooks/:key/rotate-secret/', 'Webhook'),
  list('/webhooks/:key/deliveries/', 'WebhookDelivery'),
  one('POST', '/webhooks/:key/deliveries/:id/retry/', 'WebhookDelivery', '202'),
  list('/schedules/', 'Schedule'),
  list('/events/', 'Event'),
  list('/v1/global-events/', 'Event'),
  { ...list('/v1/audit/checkpoints/', 'AuditCheckpoint'), description: 'A page of signed audit checkpoints, oldest first (organization administrators and full-access management keys; 403 permission_denied otherwise).' },
  { ...one('GET', '/v1/audit/public-key/', 'AuditPublicKey'), description: 'The Ed25519 public key that checks the audit checkpoints (any management credentials); 404 public_key_not_found when no signing key is configured.' },
  {
    method: 'GET',
    path: '/:env/:prefix/*segments',
    status: '200',
    description:
      'A collection address (`{segments}` = the alias path, with parent keys in strict-reference collections) lists published resources in a cursor page; ' +
      'an item address (`.../{key}/`) answers one resource. Reserved names answer other things: `{collection path}/_schema` the collection\'s JSON schema, ' +
      '`_router` the route table of the API, `_mcp` the agent endpoint (GET probe, POST JSON-RPC, DELETE session).',
    schema: { oneOf: [ref('DeliveryPage'), ref('DeliveryItem')] },
  },
];
