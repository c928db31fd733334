import { DomainError } from '../errors.js';
import { own } from '../records.js';
import { isContainer, STRING_MAX_LENGTH, VECTOR_DIMENSIONS, type FieldDef, type FieldMeta, type FieldType } from './fields.js';
import { compiles } from './pattern-engine.js';

/** The rules one field definition must follow: meta keys per type, flags per type, validations, its parent. */

type MetaKey = keyof FieldMeta;
type Detail = Record<string, string[]>;

const STRING_RULES: readonly MetaKey[] = ['enum', 'minLength', 'maxLength', 'pattern'];
const TEXT_RULES: readonly MetaKey[] = ['minLength', 'maxLength', 'pattern'];
const NUMBER_RULES: readonly MetaKey[] = ['enum', 'minimum', 'maximum'];

/** The meta keys that apply to a type (an array also takes the keys of its item type). */
const META_BY_TYPE: Readonly<Record<FieldType, readonly MetaKey[]>> = {
  string: STRING_RULES,
  text: TEXT_RULES,
  integer: NUMBER_RULES,
  number: NUMBER_RULES,
  boolean: [],
  date: [],
  time: [],
  datetime: [],
  json: [],
  reference: ['collections'],
  relation: ['collections'],
  object: [],
  array: ['items', 'match'],
  nested: ['component', 'component_version', 'auto_update'],
  vector: ['dimensions'],
};

const NOT_MULTIPLE: readonly FieldType[] = ['array', 'relation', 'vector', 'json'];
const NOT_SEARCHABLE: readonly FieldType[] = ['json', 'object', 'nested', 'vector'];

/** The meta keys a field may carry. */
export function allowedMeta(field: Pick<FieldDef, 'type' | 'meta'>): readonly MetaKey[] {
  const ofType = META_BY_TYPE[field.type];
  const item = field.type === 'array' && field.meta.items !== undefined ? META_BY_TYPE[field.meta.items] : [];
  return [...ofType, ...item];
}

const add = (detail: Detail, key: string, message: string): void => {
  detail[key] = [...(own(detail, key) ?? []), message];
};

/** The type validations apply to: the field's own, or its item type for an array. */
const valueType = (field: Pick<FieldDef, 'type' | 'meta'>): FieldType =>
  field.type === 'array' && field.meta.items !== undefined ? field.meta.items : field.type;

function checkMetaKeys(field: FieldDef, detail: Detail): void {
  const allowed = allowedMeta(field);
  for (const key of Object.keys(field.meta)) {
    if (!allowed.includes(key as MetaKey)) add(detail, `meta.${key}`, `does not apply to a ${field.type} field`);
  }
}

function checkRequiredOptions(field: FieldDef, detail: Detail): void {
  const { meta } = field;
  switch (field.type) {
    case 'array':
      if (meta.items === undefined) add(detail, 'meta.items', 'is required for an array field');
      if (meta.match !== undefined && meta.items !== 'object') add(detail, 'meta.match', 'applies only to an array of objects');
      break;
    case 'nested':
      if (meta.component === undefined) add(detail, 'meta.component', 'is required for a nested field');
      if (meta.component_version === undefined) add(detail, 'meta.component_version', 'is required for a nested field');
      break;
    case 'vector':
      if (meta.dimensions === undefined) add(detail, 'meta.dimensions', 'is required for a vector field');
      else if (!(VECTOR_DIMENSIONS as readonly number[]).includes(meta.dimensions)) add(detail, 'meta.dimensions', `must be one of ${VECTOR_DIMENSIONS.join(', ')}`);
      break;
    default:
      break;
  }
}

function checkValidations(field: FieldDef, detail: Detail): void {
  const { meta } = field;
  const type = valueType(field);
  if (meta.pattern !== undefined && !compiles(meta.pattern)) add(detail, 'meta.pattern', 'is not a valid RE2 regular expression (no lookaround or backreferences)');
  if (meta.minimum !== undefined && meta.maximum !== undefined && meta.minimum > meta.maximum) add(detail, 'meta.minimum', 'must not exceed maximum');
  if (meta.minLength !== undefined && meta.maxLength !== undefined && meta.minLength > meta.maxLength) add(detail, 'meta.minLength', 'must not exceed maxLength');
  if (type === 'string' && meta.maxLength !== undefined && meta.maxLength > STRING_MAX_LENGTH) add(detail, 'meta.maxLength', `must be at most ${STRING_MAX_LENGTH} for a string`);
  if (type === 'integer') {
    for (const key of ['minimum', 'maximum'] as const) {
      if (meta[key] !== undefined && !Number.isInteger(meta[key])) add(detail, `meta.${key}`, 'must be an integer for an integer field');
    }
  }
  if (meta.enum !== undefined) checkEnum(meta.enum, type, meta, detail);
  if (meta.collections !== undefined && new Set(meta.collections).size !== meta.collections.length) add(detail, 'meta.collections', 'must not repeat a collection');
}

function checkEnum(values: readonly (string | number)[], type: FieldType, meta: FieldMeta, detail: Detail): void {
  const fits = (value: string | number): boolean => {
    if (type === 'string') return typeof value === 'string' && value.length <= (meta.maxLength ?? STRING_MAX_LENGTH) && value.length >= (meta.minLength ?? 0);
    if (typeof value !== 'number') return false;
    if (type === 'integer' && !Number.isInteger(value)) return false;
    return value >= (meta.minimum ?? -Infinity) && value <= (meta.maximum ?? Infinity);
  };
  if (!values.every(fits)) add(detail, 'meta.enum', `every value must be a valid ${type} within the field's validations`);
  if (new Set(values).size !== values.length) add(detail, 'meta.enum', 'must not repeat a value');
}

function checkFlags(field: FieldDef, detail: Detail): void {
  if (field.vectorizable && field.type !== 'string' && field.type !== 'text') add(detail, 'vectorizable', 'applies to string and text fields only');
  if (field.multiple && NOT_MULTIPLE.includes(field.type)) add(detail, 'multiple', `does not apply to a ${field.type} field`);
  if (field.localizable && field.type === 'vector') add(detail, 'localizable', 'does not apply to a vector field');
  const objectArray = field.type === 'array' && field.meta.items === 'object';
  if (field.searchable && (NOT_SEARCHABLE.includes(field.type) || objectArray)) add(detail, 'searchable', `does not apply to a ${objectArray ? 'object array' : field.type} field`);
}

/** Rules between a field and the fields above it. */
function checkPlace(field: FieldDef, ancestors: readonly FieldDef[], detail: Detail): void {
  const parent = ancestors.at(-1);
  if (field.parent === null) return;
  if (!parent) {
    add(detail, 'parent', 'no field at this path');
    return;
  }
  if (!isContainer(parent)) add(detail, 'parent', `a ${parent.type} field cannot hold child fields (only object fields and arrays of objects can)`);
  if (parent.type === 'array' && parent.meta.match !== undefined && field.required) {
    add(detail, 'required', `a child of an array with match "${parent.meta.match}" is required per item by the match, not by the flag`);
  }
  if (field.localizable && ancestors.some((a) => a.localizable)) add(detail, 'localizable', 'a field inside a localizable field cannot be localizable itself');
}

/**
 * Checks one field definition in its place; `ancestors` are the fields above it, top first
 * (the last one is its parent). 422 validation_error with `detail` naming what is wrong.
 */
export function checkField(field: FieldDef, ancestors: readonly FieldDef[]): void {
  const detail: Detail = {};
  checkMetaKeys(field, detail);
  checkRequiredOptions(field, detail);
  checkValidations(field, detail);
  checkFlags(field, detail);
  checkPlace(field, ancestors, detail);
  if (Object.keys(detail).length > 0) {
    throw new DomainError('validation_error', `The field definition of "${field.path}" is invalid.`, detail);
  }
}
