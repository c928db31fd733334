import { Router } from 'express';
import { createCollection } from '../commands/collections.js';
import type { CollectionFields } from '../domain/collections/events.js';
import { param } from '../read-api/query.js';
import { collectionView } from '../read-api/views.js';
import { commandContext } from './context.js';
import type { WriteDeps } from './deps.js';
import { respondAfterWrite } from './respond.js';
import { validator } from './validate.js';

type Body = {
  name: string;
  alias: string;
  parent: string | null;
  strict_reference: boolean;
  auto_remove_revisions: number | null;
  auto_remove_schema_versions: number | null;
  content_type: 'document';
};

const autoRemove = { anyOf: [{ type: 'integer', minimum: 5, maximum: 100 }, { type: 'null' }], default: null };

const body = validator<Body>({
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 255 },
    alias: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$' },
    parent: { type: ['string', 'null'], default: null },
    strict_reference: { type: 'boolean', default: false },
    auto_remove_revisions: autoRemove,
    auto_remove_schema_versions: autoRemove,
    content_type: { type: 'string', enum: ['document'], default: 'document' },
  },
  required: ['name', 'alias'],
  additionalProperties: false,
});

/** Creates collections. */
export function collectionsWriteRouter(deps: WriteDeps): Router {
  const router = Router({ mergeParams: true });

  router.post(['/collections/tree/', '/folders/tree/'], async (req, res) => {
    const { content_type: _contentType, ...input } = body(req.body);
    const ctx = commandContext(req, res);
    const created = await createCollection(deps.bus, ctx, input);
    const event = created.events[0] as { data: CollectionFields };
    await respondAfterWrite(deps, res, {
      position: created.position,
      status: 201,
      read: async () => {
        const doc = await deps.readStore.collection('collections').get(created.key);
        return doc && doc.env === param(req, 'env') ? collectionView(doc) : null;
      },
      fallback: () => collectionView({ _id: created.key, ...event.data }),
    });
  });

  return router;
}
