import { own } from '../records.js';
import { STRING_MAX_LENGTH, type FieldDef, type FieldMeta, type FieldType, type JsonSchema, type MatchMode } from './fields.js';

/** Kept for the importers of this file's schemas: the type lives beside the fields that hold it (no import circle). */
export type { JsonSchema };
type Schema = Record<string, unknown>;

/** What the generator needs besides the fields (docs/decisions/0027). */
export type GeneratorOptions = {
  /** Locale codes every localizable value must hold (the environment's default locale). */
  readonly requiredLocales: readonly string[];
};

/** The annotation that marks a localizable property; resource writes look for exactly this keyword. */
export const LOCALIZABLE_KEYWORD = 'x-localizable';
/** A locale code: letter blocks joined by underscores (`en`, `en_US`), as locales are created. */
export const LOCALE_CODE_PATTERN = '^[A-Za-z]+(_[A-Za-z]+)*$';
export const TIME_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{3})?Z$';
export const DATETIME_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?Z$';
const KEY_PATTERN = '[A-Za-z0-9_-]+';

const COMBINATOR: Readonly<Record<MatchMode, string>> = { any: 'anyOf', all: 'allOf', one: 'oneOf' };

/** The `$defs` name of a pinned component version. */
export const defName = (component: string, version: string): string => `${component}.${version}`;

function validations(schema: Schema, meta: FieldMeta): Schema {
  if (meta.minLength !== undefined) schema.minLength = meta.minLength;
  if (meta.pattern !== undefined) schema.pattern = meta.pattern;
  if (meta.minimum !== undefined) schema.minimum = meta.minimum;
  if (meta.maximum !== undefined) schema.maximum = meta.maximum;
  if (meta.enum !== undefined) schema.enum = [...meta.enum];
  return schema;
}

const reference = (meta: FieldMeta): Schema => {
  const folders = meta.collections && meta.collections.length > 0 ? `(${meta.collections.join('|')})` : KEY_PATTERN;
  return { type: 'string', pattern: `^${folders}::${KEY_PATTERN}$` };
};

/** A single value of a scalar or reference type, with the field's validations. */
function scalar(type: FieldType, meta: FieldMeta): Schema {
  switch (type) {
    case 'string':
      return validations({ type: 'string', maxLength: Math.min(meta.maxLength ?? STRING_MAX_LENGTH, STRING_MAX_LENGTH) }, meta);
    case 'text':
      return validations(meta.maxLength === undefined ? { type: 'string' } : { type: 'string', maxLength: meta.maxLength }, meta);
    case 'integer':
    case 'number':
    case 'boolean':
      return validations({ type }, meta);
    case 'date':
      return { type: 'string', format: 'date' };
    case 'time':
      return { type: 'string', pattern: TIME_PATTERN };
    case 'datetime':
      return { type: 'string', format: 'date-time', pattern: DATETIME_PATTERN };
    case 'reference':
      return reference(meta);
    default:
      return {};
  }
}

class Generator {
  /** `$defs` by name: a Map, so a name is never looked up among inherited properties. */
  readonly defs = new Map<string, unknown>();
  private readonly children = new Map<string | null, FieldDef[]>();

  constructor(
    fields: readonly FieldDef[],
    private readonly options: GeneratorOptions,
  ) {
    for (const field of fields) {
      const siblings = this.children.get(field.parent) ?? [];
      siblings.push(field);
      this.children.set(field.parent, siblings);
    }
  }

  properties(parent: string | null): [Schema, string[], FieldDef[]] {
    const fields = this.children.get(parent) ?? [];
    const properties = Object.fromEntries(fields.map((f) => [f.key, this.property(f)]));
    return [properties, fields.filter((f) => f.required).map((f) => f.key), fields];
  }

  object(parent: string | null): Schema {
    const [properties, required] = this.properties(parent);
    return { type: 'object', properties, required, additionalProperties: false };
  }

  /**
   * An item of an object array: with `match`, anyOf / allOf / oneOf of branches that each
   * require one child; `additionalProperties: false` sits at the item level, beside the
   * combinator, so allOf can hold several children (docs/decisions/0027).
   */
  item(field: FieldDef): Schema {
    const { match } = field.meta;
    if (match === undefined) return this.object(field.path);
    const [properties, , children] = this.properties(field.path);
    const branches = children.map((c) => ({ properties: { [c.key]: own(properties, c.key) }, required: [c.key] }));
    return { type: 'object', properties, additionalProperties: false, [COMBINATOR[match]]: branches };
  }

  nested(field: FieldDef): Schema {
    const { component, component_version } = field.meta;
    const name = defName(component ?? '', component_version ?? '');
    if (field.pin && !this.defs.has(name)) {
      const { $schema: _schema, $defs, ...pinned } = field.pin.json_schema;
      for (const [def, schema] of Object.entries(($defs ?? {}) as Schema)) this.defs.set(def, schema);
      this.defs.set(name, pinned);
    }
    return { $ref: `#/$defs/${name}` };
  }

  value(field: FieldDef): Schema {
    switch (field.type) {
      case 'object':
        return this.object(field.path);
      case 'array':
        return { type: 'array', items: field.meta.items === 'object' ? this.item(field) : scalar(field.meta.items ?? 'json', field.meta) };
      case 'relation':
        return { type: 'array', items: reference(field.meta), uniqueItems: true };
      case 'vector':
        return { type: 'array', items: { type: 'number' }, minItems: field.meta.dimensions, maxItems: field.meta.dimensions };
      case 'nested':
        return this.nested(field);
      default:
        return scalar(field.type, field.meta);
    }
  }

  property(field: FieldDef): Schema {
    let schema = this.value(field);
    if (field.multiple) schema = { type: 'array', items: schema };
    if (field.nullable && field.type !== 'json') schema = { anyOf: [schema, { type: 'null' }] };
    if (field.localizable) schema = this.localized(schema);
    if (field.name) schema.title = field.name;
    if (field.description) schema.description = field.description;
    return schema;
  }

  /** A localizable value: an object keyed by locale code, marked `x-localizable`, holding the required locales. */
  localized(value: Schema): Schema {
    const { requiredLocales } = this.options;
    return {
      type: 'object',
      [LOCALIZABLE_KEYWORD]: true,
      properties: Object.fromEntries(requiredLocales.map((code) => [code, value])),
      required: [...requiredLocales],
      propertyNames: { pattern: LOCALE_CODE_PATTERN },
      additionalProperties: value,
    };
  }
}

/**
 * The JSON Schema of a version: resource data is validated against it. Nested component
 * versions are bundled under `$defs`, localizable fields are locale objects marked
 * `x-localizable`, validations are kept, object arrays combine their children per `match`.
 */
export function generateJsonSchema(fields: readonly FieldDef[], options: GeneratorOptions): JsonSchema {
  const generator = new Generator(fields, options);
  const root: Schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', ...generator.object(null) };
  if (generator.defs.size > 0) root.$defs = Object.fromEntries(generator.defs);
  return root;
}
