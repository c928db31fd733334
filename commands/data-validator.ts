import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { LOCALIZABLE_KEYWORD, type JsonSchema } from '../domain/schema/json-schema.js';
import { re2 } from '../domain/schema/pattern-engine.js';
import { validationMessage } from '../domain/validation-messages.js';

type ValidationError = { readonly path: string; readonly message: string };

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/**
 * Compiles published JSON schemas with ajv, once per schema version. `ownProperties`: a field
 * named `constructor` or `toString` is present only when the data holds it (docs/decisions/0030).
 * Patterns run on RE2, in linear time (docs/decisions/0033).
 */
export class DataValidator {
  private readonly ajv = addFormats(new Ajv2020({ allErrors: true, verbose: true, strict: false, ownProperties: true, code: { regExp: re2 } })).addKeyword(LOCALIZABLE_KEYWORD);
  private readonly compiled = new Map<string, ValidateFunction>();

  validate(version: string, schema: JsonSchema, data: unknown): ValidationError[] {
    let validate = this.compiled.get(version);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.compiled.set(version, validate);
    }
    if (validate(data)) return [];
    return (validate.errors ?? []).map((e) => ({
      path: e.instancePath || '/',
      message: validationMessage(e, (name) => `unknown field ${name}`),
    }));
  }
}
