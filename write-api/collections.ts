import type { ApiRequest, ApiRoute } from '../api/handler.js';
import { createCollection, deleteCollection, updateCollection } from '../commands/collections.js';
import type { CollectionFields } from '../domain/collections/events.js';
import type { CollectionChanges } from '../domain/collections/update.js';
import { DomainError } from '../domain/errors.js';
import { queryString } from '../api/query.js';
import { collectionView } from '../api/views.js';
import type { WriteDeps } from './deps.js';
import { afterWrite } from './respond.js';
import { documented, validator } from './validate.js';

type Body = {
  name: string;
  alias: string;
  parent: string | null;
  strict_reference: boolean;
  auto_remove_revisions: number | null;
  auto_remove_schema_versions: number | null;
  content_type: 'document';
  embedding_model?: string | null;
  embedding_dimension?: number | null;
};

const autoRemove = { anyOf: [{ type: 'integer', minimum: 5, maximum: 100 }, { type: 'null' }] };

const properties = {
  name: { type: 'string', minLength: 1, maxLength: 255 },
  alias: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$' },
  parent: { type: ['string', 'null'] },
  strict_reference: { type: 'boolean' },
  auto_remove_revisions: autoRemove,
  auto_remove_schema_versions: autoRemove,
  content_type: { type: 'string', enum: ['document'] },
};

const createBody = validator<Body>({
  type: 'object',
  properties: {
    ...properties,
    parent: { ...properties.parent, default: null },
    strict_reference: { ...properties.strict_reference, default: false },
    auto_remove_revisions: { ...autoRemove, default: null },
    auto_remove_schema_versions: { ...autoRemove, default: null },
    content_type: { ...properties.content_type, default: 'document' },
    // Set once, at creation; a PUT cannot change them (docs/decisions/0114).
    embedding_model: { type: ['string', 'null'], minLength: 1, maxLength: 100, default: null },
    embedding_dimension: { type: ['integer', 'null'], minimum: 1, maximum: 8192, default: null },
  },
  required: ['name', 'alias'],
  additionalProperties: false,
});

/** PUT: any of the writable fields; the ones left out keep their values (docs/decisions/0011). */
const updateBody = validator<Partial<Body>>({ type: 'object', properties, minProperties: 1, additionalProperties: false });

const ITEM = ['/collections/tree/collection/', '/folders/tree/folder/'];

/** The `?key=` an item path needs, else 422. */
function keyOf(request: ApiRequest): string {
  const key = queryString(request.query, 'key');
  if (key === undefined || key === '') throw new DomainError('validation_error', 'Give the collection key.', { key: ['is required'] });
  return key;
}

// The request schemas in the API documents (/openapi.json).
documented(createBody, { method: 'POST', path: '/tree/', in: 'body' });
documented(updateBody, { method: 'PUT', path: '/tree/collection/', in: 'body' }, { method: 'PUT', path: '/tree/folder/', in: 'body' });

/** Creates, updates and deletes collections. */
export function collectionsWriteRoutes(deps: WriteDeps): ApiRoute[] {
  const routes: ApiRoute[] = [];
  const readView = async (env: string, key: string) => {
    const doc = await deps.readStore.collection('collections').get(key);
    return doc && doc.env === env ? collectionView(doc) : null;
  };

  routes.push({ method: 'post', path: ['/collections/tree/', '/folders/tree/'], handler: async (request) => {
    const { content_type: _contentType, ...input } = createBody(request.body);
    const ctx = request.context;
    const created = await createCollection(deps.bus, ctx, input);
    const event = created.events[0] as { data: CollectionFields };
    return afterWrite(deps, {
      position: created.position,
      status: 201,
      read: () => readView(ctx.env, created.key),
      fallback: () => collectionView({ _id: created.key, ...event.data }),
    });
  } });

  routes.push({ method: 'put', path: ITEM, handler: async (request) => {
    const key = keyOf(request);
    const { content_type: _contentType, ...changes } = updateBody(request.body);
    const ctx = request.context;
    const updated = await updateCollection(deps.bus, ctx, key, changes satisfies CollectionChanges);
    const event = updated.events[0] as { data: Record<string, unknown> } | undefined;
    return afterWrite(deps, {
      position: updated.position,
      status: 200,
      read: () => readView(ctx.env, key),
      fallback: () => collectionView({ _id: key, ...event?.data, content_type: 'document' }),
    });
  } });

  routes.push({ method: 'delete', path: ITEM, handler: async (request) => {
    const key = keyOf(request);
    const deleted = await deleteCollection(deps.bus, request.context, key);
    // 204 once the cascade is done and read; 202 when it is still running (or stopped on a fault).
    const done = await deps.projections.waitForCascade(deleted.position, deps.waitTimeoutMs);
    return { status: done ? 204 : 202 };
  } });

  return routes;
}
