import { STRING_MAX_LENGTH, type FieldDef } from './fields.js';

/** JSON Schema as generated on publish; plain data so it can live in an event. */
export type JsonSchema = { readonly [keyword: string]: unknown };

function scalar(field: FieldDef): Record<string, unknown> {
  const { meta } = field;
  const schema: Record<string, unknown> = {};
  switch (field.type) {
    case 'string':
      schema.type = 'string';
      schema.maxLength = Math.min(meta.maxLength ?? STRING_MAX_LENGTH, STRING_MAX_LENGTH);
      break;
    case 'text':
      schema.type = 'string';
      if (meta.maxLength !== undefined) schema.maxLength = meta.maxLength;
      break;
    case 'integer':
    case 'number':
    case 'boolean':
      schema.type = field.type;
      break;
  }
  if (meta.minLength !== undefined) schema.minLength = meta.minLength;
  if (meta.pattern !== undefined) schema.pattern = meta.pattern;
  if (meta.minimum !== undefined) schema.minimum = meta.minimum;
  if (meta.maximum !== undefined) schema.maximum = meta.maximum;
  if (meta.enum !== undefined) schema.enum = [...meta.enum];
  return schema;
}

function fieldSchema(field: FieldDef): Record<string, unknown> {
  let schema = scalar(field);
  if (field.multiple) schema = { type: 'array', items: schema };
  if (field.nullable) schema = { anyOf: [schema, { type: 'null' }] };
  if (field.name) schema.title = field.name;
  if (field.description) schema.description = field.description;
  return schema;
}

/** The JSON Schema of a version's top-level fields; resource data is validated against it. */
export function generateJsonSchema(fields: readonly FieldDef[]): JsonSchema {
  const top = fields.filter((f) => f.parent === null);
  const required = top.filter((f) => f.required).map((f) => f.key);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: Object.fromEntries(top.map((f) => [f.key, fieldSchema(f)])),
    required,
    additionalProperties: false,
  };
}
