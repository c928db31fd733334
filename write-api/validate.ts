import { Ajv, type ErrorObject, type JSONSchemaType, type Schema } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { DomainError } from '../domain/errors.js';

/** Request validation: JSON Schema per body or query, strict types, no coercion, own properties only. */
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: true, useDefaults: true, coerceTypes: false, strict: true, allowUnionTypes: true, ownProperties: true }));

/** Field → messages, the `detail` of a 422. A Map first: a sent name like `constructor` is a field, not Object.prototype's. */
export function detailOf(errors: readonly ErrorObject[]): Record<string, string[]> {
  const detail = new Map<string, string[]>();
  for (const error of errors) {
    let field = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'required') field = String(error.params.missingProperty);
    if (error.keyword === 'additionalProperties') {
      field = String(error.params.additionalProperty);
      message = 'is not allowed';
    }
    const key = field || 'body';
    detail.set(key, [...(detail.get(key) ?? []), message]);
  }
  return Object.fromEntries(detail);
}

/** A validator that returns the typed input (with defaults) or throws 422 with `code`. */
export function validator<T>(schema: JSONSchemaType<T> | Schema, code = 'validation_error'): (input: unknown) => T {
  const validate = ajv.compile<T>(schema as Schema);
  return (input) => {
    const copy = input === undefined ? {} : structuredClone(input);
    if (validate(copy)) return copy;
    throw new DomainError(code, 'The request is invalid.', detailOf(validate.errors ?? []));
  };
}
