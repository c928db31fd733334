import type { ApiRoute } from '../api/handler.js';
import { createField, deleteField, updateField, type FieldInput } from '../commands/fields.js';
import { DomainError } from '../domain/errors.js';
import type { FieldChanges } from '../domain/schema/field-commands.js';
import { ARRAY_ITEM_TYPES, FIELD_TYPES, MATCH_MODES } from '../domain/schema/fields.js';
import { fieldId } from '../projections/schema-versions.js';
import { param, queryString } from '../api/query.js';
import { schemaRef, versionPaths as paths } from '../api/schema-paths.js';
import { fieldView } from '../api/views.js';
import type { WriteDeps } from './deps.js';
import { afterWrite } from './respond.js';
import { documented, validator } from './validate.js';

const KEY = '^[A-Za-z0-9_-]+$';

/** The wire shape of a field definition; `defaults` fills what a create leaves out (an update keeps it instead). */
function fieldProperties(defaults: boolean): Record<string, unknown> {
  const withDefault = (schema: Record<string, unknown>, value: unknown) => (defaults ? { ...schema, default: value } : schema);
  const flag = withDefault({ type: 'boolean' }, false);
  return {
    key: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z][A-Za-z0-9_]*$' },
    name: withDefault({ type: 'string', maxLength: 255 }, ''),
    description: withDefault({ type: 'string', maxLength: 500 }, ''),
    type: { type: 'string', enum: [...FIELD_TYPES] },
    meta: withDefault(
      {
        type: 'object',
        properties: {
          enum: { type: 'array', items: { type: ['string', 'number'] }, minItems: 1, maxItems: 1000 },
          minimum: { type: 'number' },
          maximum: { type: 'number' },
          minLength: { type: 'integer', minimum: 0 },
          maxLength: { type: 'integer', minimum: 0 },
          pattern: { type: 'string', format: 'regex', maxLength: 1000 },
          items: { type: 'string', enum: [...ARRAY_ITEM_TYPES] },
          match: { type: 'string', enum: [...MATCH_MODES] },
          dimensions: { type: 'integer' },
          component: { type: 'string', pattern: KEY, maxLength: 100 },
          component_version: { type: 'string', pattern: KEY, maxLength: 100 },
          auto_update: { type: 'boolean' },
          collections: { type: 'array', items: { type: 'string', pattern: KEY, maxLength: 100 }, minItems: 1, maxItems: 100 },
        },
        additionalProperties: false,
      },
      {},
    ),
    required: flag,
    nullable: flag,
    multiple: flag,
    localizable: flag,
    searchable: flag,
    private: flag,
    vectorizable: flag,
  };
}

const createBody = validator<FieldInput>({
  type: 'object',
  properties: { ...fieldProperties(true), parent: { type: ['string', 'null'], default: null } },
  required: ['key', 'type'],
  additionalProperties: false,
});

/** An update names what changes; a field keeps its place (no `parent`). */
const updateBody = validator<FieldChanges>({ type: 'object', properties: fieldProperties(false), additionalProperties: false });

function fieldPath(query: Record<string, unknown>): string {
  const path = queryString(query, 'path');
  if (path === undefined || path === '') throw new DomainError('validation_error', 'Give the field path.', { path: ['is required'] });
  return path;
}

// The request schemas in the API documents (/openapi.json).
documented(createBody, { method: 'POST', path: '/schema/tree/', in: 'body' });
documented(updateBody, { method: 'PUT', path: '/schema/tree/field/', in: 'body' });

/** Fields of a draft schema version: create on the tree, update and delete at `schema/tree/field/?path=`. */
export function fieldsWriteRoutes(deps: WriteDeps): ApiRoute[] {
  const routes: ApiRoute[] = [];
  const read = (version: string, path: string) => async () => {
    const doc = await deps.readStore.collection('schema_fields').get(fieldId(version, path));
    return doc ? fieldView(doc) : null;
  };

  routes.push({ method: 'post', path: paths('/:version/schema/tree/'), handler: async (request) => {
    const input = createBody(request.body);
    const ctx = request.context;
    const version = param(request, 'version');
    const created = await createField(deps.bus, ctx, schemaRef(request), version, input);
    return afterWrite(deps, {
      position: created.position,
      status: 201,
      read: read(version, created.path),
      fallback: () => ({ ...input, path: created.path }),
    });
  } });

  routes.push({ method: 'put', path: paths('/:version/schema/tree/field/'), handler: async (request) => {
    const path = fieldPath(request.query);
    const changes = updateBody(request.body);
    const ctx = request.context;
    const version = param(request, 'version');
    const updated = await updateField(deps.bus, ctx, schemaRef(request), version, path, changes);
    return afterWrite(deps, {
      position: updated.position,
      status: 200,
      read: read(version, updated.path),
      fallback: () => ({ ...changes, path: updated.path }),
    });
  } });

  routes.push({ method: 'delete', path: paths('/:version/schema/tree/field/'), handler: async (request) => {
    const path = fieldPath(request.query);
    const ctx = request.context;
    const deleted = await deleteField(deps.bus, ctx, schemaRef(request), param(request, 'version'), path);
    await deps.projections.waitFor(deleted.position, deps.waitTimeoutMs);
    return { status: 204 };
  } });

  return routes;
}
