import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { DomainError } from '../../../domain/errors.js';
import { validationMessage } from '../../../domain/validation-messages.js';

// validateSchema: false: the schema is this module's constant (strict mode still refuses an unknown keyword); checking it
// against the meta-schema first compiled that too, half of the 70 ms the compile took at every start (docs/decisions/0382).
const ajv = new Ajv({ allErrors: true, verbose: true, useDefaults: false, coerceTypes: false, strict: true, ownProperties: true, validateSchema: false });

const fieldList = { type: 'array', items: { type: 'string', minLength: 1, maxLength: 500 }, minItems: 1, maxItems: 100 } as const;
const unit = { type: 'number', minimum: 0, maximum: 1 } as const;
const topK = { type: 'integer', minimum: 1 } as const;
const textQuery = { type: 'string', minLength: 1, maxLength: 1000 } as const;

/** The `_search` body as the reference shows it (product facts 4.5 and 4.8); rules across keys are in request.ts. */
export const SEARCH_BODY = {
  type: 'object',
  additionalProperties: false,
  properties: {
    search_mode: { enum: ['text', 'vector', 'vector_boosted', 'hybrid'] },
    find_text: {
      type: 'object',
      additionalProperties: false,
      required: ['query'],
      properties: { query: textQuery, fields: fieldList, threshold: unit },
    },
    find_phrase: { type: 'object', additionalProperties: false, required: ['query'], properties: { query: textQuery, fields: fieldList } },
    vector_search: {
      type: 'object',
      additionalProperties: false,
      required: ['query'],
      // `threshold`: the name one product page uses for `similarity_threshold` (docs/decisions/0172).
      properties: { query: { type: 'string', minLength: 3 }, fields: fieldList, top_k: topK, similarity_threshold: unit, threshold: unit },
    },
    vector_field_search: {
      type: 'object',
      additionalProperties: false,
      required: ['field', 'query_vector'],
      properties: {
        field: { type: 'string', minLength: 1 },
        query_vector: { type: 'array', minItems: 1, maxItems: 4096, items: { type: 'number' } },
        top_k: topK,
        similarity_threshold: unit,
      },
    },
    hybrid_config: {
      type: 'object',
      additionalProperties: false,
      properties: { vector_weight: unit, text_weight: unit, rerank_results: { type: 'boolean' } },
    },
    vector_boost_config: {
      type: 'object',
      additionalProperties: false,
      properties: {
        boost_factor: { type: 'number', exclusiveMinimum: 0 },
        similarity_threshold: unit,
        max_boost_results: { type: 'integer', minimum: 1 },
      },
    },
    where: { type: 'object' },
    sort: { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 10 },
    fields: fieldList,
    limit: { type: 'integer', minimum: 1 },
    offset: { type: 'integer', minimum: 0, maximum: 1000 },
    join: { type: 'object' },
  },
} as const;

/** Compiled by `prepareBodyShape` once the service listens, or by the first search: at module load it cost a restart about 100 ms of CPU (docs/decisions/0347). */
let validate: ValidateFunction | null = null;

/** Compiles the body schema now, so that the first search does not (docs/decisions/0349). */
export function prepareBodyShape(): void {
  validate ??= ajv.compile(SEARCH_BODY);
}

/** Dotted names of the fields an error is about: `vector_search.query`, `find_text.fields.0`. */
function fieldOf(error: ErrorObject): string {
  const base = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const child = error.keyword === 'required' ? error.params.missingProperty : error.keyword === 'additionalProperties' ? error.params.additionalProperty : null;
  if (child === null || child === undefined) return base || 'body';
  return base ? `${base}.${String(child)}` : String(child);
}

export function invalid(detail: Map<string, string[]> | Record<string, string[]>): DomainError {
  const plain = detail instanceof Map ? Object.fromEntries(detail) : detail;
  const names = Object.keys(plain);
  return new DomainError('validation_error', `Invalid search request: ${names.join(', ')}.`, plain);
}

/** Checks the body's shape; a refusal is 422 validation_error with each offending field named in `detail`. */
export function checkBodyShape(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  prepareBodyShape();
  if (validate!(body)) return body as Record<string, unknown>;
  const detail = new Map<string, string[]>();
  for (const error of validate!.errors ?? []) {
    const field = fieldOf(error);
    const message = validationMessage(error);
    detail.set(field, [...(detail.get(field) ?? []), message]);
  }
  throw invalid(detail);
}
