import { Router } from 'express';
import { createField, createVersion, publishVersion, type FieldInput } from '../commands/schema.js';
import { DomainError } from '../domain/errors.js';
import { FIELD_TYPES } from '../domain/schema/fields.js';
import { fieldId } from '../projections/schema-versions.js';
import { param, queryString } from '../read-api/query.js';
import { fieldView, versionView } from '../read-api/views.js';
import { commandContext } from './context.js';
import type { WriteDeps } from './deps.js';
import { respondAfterWrite } from './respond.js';
import { validator } from './validate.js';

const BASES = ['/collections/:collection/model/versions', '/folders/:collection/model/versions'];
const paths = (suffix: string): string[] => BASES.map((b) => `${b}${suffix}`);

const versionBody = validator<{ name: string; description: string }>({
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 255, default: '' },
    description: { type: 'string', maxLength: 500, default: '' },
  },
  additionalProperties: false,
});

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

const publishBody = validator<{ check_valid_drafts: boolean }>({
  type: 'object',
  properties: { check_valid_drafts: { type: 'boolean', default: false } },
  additionalProperties: false,
});

/** Schema versions: create, add fields to a draft, publish. */
export function schemaWriteRouter(deps: WriteDeps): Router {
  const router = Router({ mergeParams: true });
  const versionDoc = async (key: string) => deps.readStore.collection('schema_versions').get(key);

  router.post(paths('/'), async (req, res) => {
    const input = versionBody(req.body);
    const ctx = commandContext(req, res);
    const copyFrom = queryString(req.query, 'copy_from') ?? null;
    const created = await createVersion(deps.bus, ctx, param(req, 'collection'), { ...input, copy_from: copyFrom });
    await respondAfterWrite(deps, res, {
      position: created.position,
      status: 201,
      read: async () => {
        const doc = await versionDoc(created.key);
        return doc ? versionView(doc) : null;
      },
      fallback: () => ({ key: created.key, version_number: null, ...input, created_at: ctx.now, published_at: null, archived_at: null, json_schema: null }),
    });
  });

  router.post(paths('/:version/schema/tree/'), async (req, res) => {
    const input = fieldBody(req.body);
    if (input.vectorizable && input.type !== 'string' && input.type !== 'text') {
      throw new DomainError('validation_error', 'Only string and text fields can be vectorizable.', { vectorizable: ['string and text only'] });
    }
    const ctx = commandContext(req, res);
    const version = param(req, 'version');
    const created = await createField(deps.bus, ctx, param(req, 'collection'), version, input);
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

  router.post(paths('/:version/publish/'), async (req, res) => {
    publishBody(req.body);
    const ctx = commandContext(req, res);
    const version = param(req, 'version');
    const published = await publishVersion(deps.bus, ctx, param(req, 'collection'), version);
    await respondAfterWrite(deps, res, {
      position: published.position,
      status: 200,
      read: async () => {
        const doc = await versionDoc(version);
        return doc ? versionView(doc) : null;
      },
      fallback: () => ({ key: version }),
    });
  });

  return router;
}
