import { Ajv, type ErrorObject, type JSONSchemaType, type Schema, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { DomainError } from '../domain/errors.js';
import { validationMessage } from '../domain/validation-messages.js';

/** Request validation: JSON Schema per body or query, strict types, no coercion, own properties only. */
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: true, verbose: true, useDefaults: true, coerceTypes: false, strict: true, allowUnionTypes: true, ownProperties: true }));

/** Field → messages, the `detail` of a 422. A Map first: a sent name like `constructor` is a field, not Object.prototype's. */
export function detailOf(errors: readonly ErrorObject[]): Record<string, string[]> {
  const detail = new Map<string, string[]>();
  for (const error of errors) {
    let field = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const message = validationMessage(error);
    if (error.keyword === 'required') field = String(error.params.missingProperty);
    if (error.keyword === 'additionalProperties') field = String(error.params.additionalProperty);
    const key = field || 'body';
    detail.set(key, [...(detail.get(key) ?? []), message]);
  }
  return Object.fromEntries(detail);
}

/**
 * Which request a schema validates, for the API documents: the method and a path suffix
 * (`/locales/:code/`) matched against the end of every route template, and the part checked.
 */
export type RequestPart = { readonly method: string; readonly path: string; readonly in: 'body' | 'query' };

/** A compiled request schema and the request it validates. */
export type RegisteredSchema = RequestPart & { readonly schema: Schema; readonly code: string };

type Validate = (input: unknown) => unknown;

/** Each validator made here, with the schema it was compiled from. */
const compiled = new WeakMap<Validate, { readonly schema: Schema; readonly code: string }>();
const registry: RegisteredSchema[] = [];

/** Every request schema that names its request (the OpenAPI generator reads them). */
export const requestSchemas = (): readonly RegisteredSchema[] => registry;

/** Registers the schema a validator was compiled from as the one of these requests (docs/decisions/0111). */
export function documented(validate: Validate, ...parts: readonly RequestPart[]): void {
  const source = compiled.get(validate);
  if (!source) throw new Error('documented() takes a validator made by validator()');
  for (const part of parts) registry.push({ ...part, ...source });
}

/** Whether a schema value holds a `default` keyword anywhere (a property named `default` counts too: the safe side). */
const anyDefault = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && Object.entries(value).some(([key, inner]) => key === 'default' || anyDefault(inner));

/** Whether a schema holds a `default` anywhere but on the root's own properties. */
function hasNestedDefault(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const { properties, ...rest } = schema as { properties?: unknown };
  if (anyDefault(rest)) return true;
  if (typeof properties !== 'object' || properties === null) return false;
  return Object.values(properties).some((property) => {
    if (typeof property !== 'object' || property === null) return false;
    const { default: _own, ...inner } = property as Record<string, unknown>;
    return anyDefault(inner);
  });
}

const plainObject = (input: unknown): input is Record<string, unknown> =>
  typeof input === 'object' && input !== null && Object.getPrototypeOf(input) === Object.prototype;

/**
 * `{ ...input }`, the same own properties in the same order, `__proto__` included as an own
 * property, but a new object of its own shape: V8 gives `{ ...input }` the shape of `input`,
 * and for a body `JSON.parse` made, each property ajv then added as a default cost about
 * a microsecond (4.5 µs for a create's four defaults, against 0.2 µs this way: 2.7% of the
 * main thread's busy time per create, docs/decisions/0323). The empty object spread first is
 * what makes it so: keep it.
 */
const shallowCopy = (input: Record<string, unknown>): Record<string, unknown> => ({ ...{}, ...input });

/**
 * A validator that returns the typed input (with defaults) or throws 422 with `code`. The schema
 * is compiled on the validator's first use: compiling the 200-odd request schemas when the
 * modules load took a sixth of a restart's CPU time (docs/decisions/0347).
 */
export function validator<T>(schema: JSONSchemaType<T> | Schema, code = 'validation_error'): (input: unknown) => T {
  let validate: ValidateFunction<T> | null = null;
  // ajv writes defaults into what it validates: a copy, so the request keeps what was sent. When
  // every default is a root property's, a copy of the root object is enough (the rest is only read).
  const shallow = !hasNestedDefault(schema);
  const check = (input: unknown): T => {
    validate ??= ajv.compile<T>(schema as Schema);
    const copy = input === undefined ? {} : shallow && plainObject(input) ? shallowCopy(input) : structuredClone(input);
    if (validate(copy)) return copy;
    throw new DomainError(code, 'The request is invalid.', detailOf(validate.errors ?? []));
  };
  compiled.set(check, { schema: schema as Schema, code });
  return check;
}
