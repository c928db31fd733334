import { Ajv, type ErrorObject, type JSONSchemaType, type Schema } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { DomainError } from '../domain/errors.js';

/** Request validation: JSON Schema per body or query, strict types, no coercion. */
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: true, useDefaults: true, coerceTypes: false, strict: true, allowUnionTypes: true }));

/** Field → messages, the `detail` of a 422. */
export function detailOf(errors: readonly ErrorObject[]): Record<string, string[]> {
  const detail: Record<string, string[]> = {};
  for (const error of errors) {
    let field = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'required') field = String(error.params.missingProperty);
    if (error.keyword === 'additionalProperties') {
      field = String(error.params.additionalProperty);
      message = 'is not allowed';
    }
    (detail[field || 'body'] ??= []).push(message);
  }
  return detail;
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
