import { Router } from 'express';
import { createField, type FieldInput } from '../commands/fields.js';
import { DomainError } from '../domain/errors.js';
import { FIELD_TYPES } from '../domain/schema/fields.js';
import { fieldId } from '../projections/schema-versions.js';
import { param } from '../read-api/query.js';
import { schemaRef, versionPaths as paths } from '../read-api/schema-paths.js';
import { fieldView } from '../read-api/views.js';
import { commandContext } from './context.js';
import type { WriteDeps } from './deps.js';
import { respondAfterWrite } from './respond.js';
import { validator } from './validate.js';

const flag = { type: 'boolean', default: false };
const fieldBody = validator<FieldInput>({
  type: 'object',
  properties: {
    key: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z][A-Za-z0-9_]*$' },
    name: { type: 'string', maxLength: 255, default: '' },
    description: { type: 'string', maxLength: 500, default: '' },
    type: { type: 'string', enum: [...FIELD_TYPES] },
    parent: { type: ['string', 'null'], default: null },
    meta: {
      type: 'object',
      properties: {
        enum: { type: 'array', items: { type: ['string', 'number'] }, minItems: 1 },
        minimum: { type: 'number' },
        maximum: { type: 'number' },
        minLength: { type: 'integer', minimum: 0 },
        maxLength: { type: 'integer', minimum: 0 },
        pattern: { type: 'string', format: 'regex' },
      },
      additionalProperties: false,
      default: {},
    },
    required: flag,
    nullable: flag,
    multiple: flag,
    localizable: flag,
    searchable: flag,
    private: flag,
    vectorizable: flag,
  },
  required: ['key', 'type'],
  additionalProperties: false,
});

/** Fields of a draft schema version. */
export function fieldsWriteRouter(deps: WriteDeps): Router {
  const router = Router({ mergeParams: true });

  router.post(paths('/:version/schema/tree/'), async (req, res) => {
    const input = fieldBody(req.body);
    if (input.vectorizable && input.type !== 'string' && input.type !== 'text') {
      throw new DomainError('validation_error', 'Only string and text fields can be vectorizable.', { vectorizable: ['string and text only'] });
    }
    const ctx = commandContext(req, res);
    const version = param(req, 'version');
    const created = await createField(deps.bus, ctx, schemaRef(req), version, input);
    await respondAfterWrite(deps, res, {
      position: created.position,
      status: 201,
      read: async () => {
        const doc = await deps.readStore.collection('schema_fields').get(fieldId(version, created.path));
        return doc ? fieldView(doc) : null;
      },
      fallback: () => ({ ...input, path: created.path }),
    });
  });

  return router;
}
