import { createResource, deleteResource, updateResourceMetadata } from '../commands/resources.js';
import { upsertResource } from '../commands/upsert.js';
import { DomainError } from '../domain/errors.js';
import { param, queryBool, queryString } from '../api/query.js';
import type { WriteDeps } from './deps.js';
import type { ApiHandler, ApiRequest, ApiRoute } from '../api/handler.js';
import { ifMatch } from './if-match.js';
import { answerResource } from './resource-answer.js';
import { documented, validator } from './validate.js';


type Body = {
  data: Record<string, unknown>;
  name: string | null;
  resource_owner: string | null;
  mode: 'instant' | 'draft';
  validate_data: boolean;
};

const name = { type: ['string', 'null'], minLength: 1, maxLength: 255 };
const bodyProperties = {
  data: { type: 'object' },
  name: { ...name, default: null },
  resource_owner: { type: ['string', 'null'], default: null },
  mode: { type: 'string', enum: ['instant', 'draft'], default: 'instant' },
  validate_data: { type: 'boolean', default: true },
};

const externalIdRule = { type: 'string', minLength: 1, maxLength: 255, pattern: '^[a-zA-Z0-9/._-]+$' };
/** Create: the product's client sends `external_id` in the body; the query form stays (docs/decisions/0114). */
const createBody = validator<Body & { external_id?: string | null }>({
  type: 'object',
  properties: { ...bodyProperties, external_id: { ...externalIdRule, type: ['string', 'null'] } },
  required: ['data'],
  additionalProperties: false,
});
/** Upsert: the same fields, but `name` has no default (left out, it is kept); `publish_at` with mode=draft schedules the new revision. */
const upsertBody = validator<Omit<Body, 'name'> & { name?: string | null; publish_at?: string }>({
  type: 'object',
  properties: { ...bodyProperties, name, publish_at: { type: 'string', format: 'date-time' } },
  required: ['data'],
  additionalProperties: false,
});

const externalIdQuery = validator<{ external_id?: string }>({ type: 'object', properties: { external_id: externalIdRule } });
/** The upsert reports a bad external_id or name as data_validation_error (specification, Errors). */
const upsertFields = validator<{ external_id: string; name?: string | null }>(
  { type: 'object', properties: { external_id: externalIdRule, name }, required: ['external_id'] },
  'data_validation_error',
);

const metadataBody = validator<{ name?: string | null }>({
  type: 'object',
  properties: { name },
  additionalProperties: false,
});

// The request schemas in the API documents (/openapi.json).
documented(createBody, { method: 'POST', path: '/resources/', in: 'body' });
documented(upsertBody, { method: 'PUT', path: '/resources/', in: 'body' });
documented(externalIdQuery, { method: 'POST', path: '/resources/', in: 'query' }, { method: 'PUT', path: '/resources/', in: 'query' });
documented(metadataBody, { method: 'PUT', path: '/resources/:resource/', in: 'body' });

/** `POST .../resources/`. */
export function createResourceHandler(deps: WriteDeps): ApiHandler {
  return async (request) => {
    const { query } = request;
    const { external_id: inBody, ...input } = createBody(request.body);
    const { external_id: inQuery } = externalIdQuery({ external_id: query.external_id });
    if (inQuery !== undefined && inBody !== undefined && inBody !== null && inQuery !== inBody) {
      throw new DomainError('validation_error', 'external_id is given twice with different values.', { external_id: ['differs between the query and the body'] });
    }
    const external_id = inQuery ?? inBody ?? undefined;
    const wait = queryBool(query, 'wait', true);
    // `...{}` first: an object literal that starts with a spread and adds properties after it is slow in V8 (Node 20, docs/decisions/0323).
    const created = await createResource(deps.bus, deps.validator, request.context, { ...{}, ...input, folder: param(request, 'collection'), external_id: external_id ?? null }, deps.resourceQuota);
    return answerResource(deps, created, 201, wait);
  };
}

/** `PUT .../resources/?external_id=`: upsert. */
export function upsertResourceHandler(deps: WriteDeps): ApiHandler {
  return async (request: ApiRequest) => {
    const { query, body } = request;
    const externalId = queryString(query, 'external_id');
    if (externalId === undefined || externalId === '') {
      throw new DomainError('external_id_required', 'An upsert needs the external_id query parameter.', { external_id: ['required'] });
    }
    const sentName = typeof body === 'object' && body !== null && 'name' in body ? { name: (body as { name: unknown }).name } : {};
    upsertFields({ external_id: externalId, ...sentName });
    const input = upsertBody(body);
    const wait = queryBool(query, 'wait', true);
    const if_match = ifMatch(request.header('if-match'));
    const written = await upsertResource(deps.bus, deps.validator, request.context, {
      ...input,
      folder: param(request, 'collection'),
      external_id: externalId,
      if_match,
    }, deps.resourceQuota);
    return answerResource(deps, written, written.created ? 201 : 200, wait);
  };
}

/** `PUT .../resources/:resource/`: the name. */
export function updateResourceHandler(deps: WriteDeps): ApiHandler {
  return async (request) => {
    const input = metadataBody(request.body);
    const key = param(request, 'resource');
    const updated = await updateResourceMetadata(deps.bus, request.context, param(request, 'collection'), key, input.name);
    return answerResource(deps, { ...updated, key }, 200);
  };
}

/** `DELETE .../resources/:resource/`. */
export function deleteResourceHandler(deps: WriteDeps): ApiHandler {
  return async (request) => {
    const deleted = await deleteResource(deps.bus, request.context, param(request, 'collection'), param(request, 'resource'), deps.resourceQuota);
    // Descendants are deleted by the cascade reactor (decision 0083): 204 once it is done and read, else 202.
    const done = await deps.projections.waitForCascade(deleted.position, deps.waitTimeoutMs);
    return { status: done ? 204 : 202 };
  };
}

/** Resource writes, under `.../collections/:collection/resources` (and `folders`): create, upsert by external_id, metadata update, delete. */
export function resourceWriteRoutes(deps: WriteDeps): ApiRoute[] {
  return [
    { method: 'post', path: '/', handler: createResourceHandler(deps) },
    { method: 'put', path: '/', handler: upsertResourceHandler(deps) },
    { method: 'put', path: '/:resource/', handler: updateResourceHandler(deps) },
    { method: 'delete', path: '/:resource/', handler: deleteResourceHandler(deps) },
  ];
}
