import { Router } from 'express';
import { createResource, updateResourceMetadata } from '../commands/resources.js';
import { findResource } from '../read-api/lookups.js';
import type { ResourceFields } from '../domain/resource/events.js';
import { param, queryBool } from '../read-api/query.js';
import { resourceView } from '../read-api/views.js';
import { commandContext } from './context.js';
import type { WriteDeps } from './deps.js';
import { respondAfterWrite } from './respond.js';
import { validator } from './validate.js';

const BASES = ['/collections/:collection/resources', '/folders/:collection/resources'];
const paths = (suffix: string): string[] => BASES.map((b) => `${b}${suffix}`);

type Body = {
  data: Record<string, unknown>;
  name: string | null;
  resource_owner: string | null;
  mode: 'instant' | 'draft';
  validate_data: boolean;
};

const createBody = validator<Body>({
  type: 'object',
  properties: {
    data: { type: 'object' },
    name: { type: ['string', 'null'], minLength: 1, maxLength: 255, default: null },
    resource_owner: { type: ['string', 'null'], default: null },
    mode: { type: 'string', enum: ['instant', 'draft'], default: 'instant' },
    validate_data: { type: 'boolean', default: true },
  },
  required: ['data'],
  additionalProperties: false,
});

const externalIdQuery = validator<{ external_id?: string }>({
  type: 'object',
  properties: { external_id: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[a-zA-Z0-9/._-]+$' } },
});

const metadataBody = validator<{ name?: string | null }>({
  type: 'object',
  properties: { name: { type: ['string', 'null'], minLength: 1, maxLength: 255 } },
  additionalProperties: false,
});

/** Creates resources (upsert, revisions and deletes come with the resources issue). */
export function resourcesWriteRouter(deps: WriteDeps): Router {
  const router = Router({ mergeParams: true });

  router.post(paths('/'), async (req, res) => {
    const input = createBody(req.body);
    const { external_id } = externalIdQuery({ external_id: req.query.external_id });
    const wait = queryBool(req.query, 'wait', true);
    const ctx = commandContext(req, res);
    const created = await createResource(deps.bus, deps.validator, ctx, {
      ...input,
      folder: param(req, 'collection'),
      external_id: external_id ?? null,
    });
    const event = created.events[0] as { data: ResourceFields };
    const fallback = () =>
      resourceView({
        _id: created.key,
        ...event.data,
        content_type: 'document',
        current_revision: input.mode === 'instant' ? (created.events[1] as { data: { key: string } }).data.key : null,
        vectors_size: 0,
      });
    if (!wait) {
      res.status(202).json(fallback());
      return;
    }
    await respondAfterWrite(deps, res, {
      position: created.position,
      status: 201,
      read: async () => {
        const doc = await deps.readStore.collection('resources').get(created.key);
        return doc ? resourceView(doc) : null;
      },
      fallback,
    });
  });

  router.put(paths('/:resource/'), async (req, res) => {
    const input = metadataBody(req.body);
    const folder = param(req, 'collection');
    const key = param(req, 'resource');
    const ctx = commandContext(req, res);
    const updated = await updateResourceMetadata(deps.bus, ctx, folder, key, input.name);
    await respondAfterWrite(deps, res, {
      position: updated.position,
      status: 200,
      read: async () => resourceView(await findResource(deps.readStore, folder, key)),
      fallback: () => ({ key, folder, name: input.name }),
    });
  });

  return router;
}
