/**
 * The fields of a collection as the delivery query sees them, read from its published
 * JSON schema: each field's value kind, whether it is localizable, a reference or a
 * relation, and its children (objects, object arrays).
 */

export type ValueKind = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'any';

export type CatalogField = {
  readonly kind: ValueKind;
  /** Kind of the items of an array field. */
  readonly items: ValueKind | null;
  readonly localizable: boolean;
  /** `folder::key` values (a reference, or the items of a relation). */
  readonly reference: boolean;
  /** Fields of an object, or of the objects of an object array. */
  readonly children: Catalog;
};

export type Catalog = ReadonlyMap<string, CatalogField>;

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => value !== null && typeof value === 'object' && !Array.isArray(value);

class Reader {
  constructor(private readonly defs: Schema) {}

  /** Follows `$ref` into `$defs` and strips a nullable `anyOf [X, {type: null}]`. */
  unwrap(schema: Schema): Schema {
    let current = schema;
    for (let depth = 0; depth < 32; depth++) {
      const ref = current.$ref;
      if (typeof ref === 'string' && ref.startsWith('#/$defs/')) {
        const target = this.defs[ref.slice('#/$defs/'.length)];
        if (!isSchema(target)) return {};
        current = target;
        continue;
      }
      const anyOf = current.anyOf;
      if (Array.isArray(anyOf) && anyOf.length === 2 && isSchema(anyOf[1]) && anyOf[1].type === 'null' && isSchema(anyOf[0])) {
        current = anyOf[0];
        continue;
      }
      return current;
    }
    return current;
  }

  kind(schema: Schema): ValueKind {
    const type = schema.type;
    return type === 'string' || type === 'number' || type === 'integer' || type === 'boolean' || type === 'object' || type === 'array' ? type : 'any';
  }

  field(raw: Schema): CatalogField {
    let schema = this.unwrap(raw);
    const localizable = schema['x-localizable'] === true;
    if (localizable) schema = this.unwrap(isSchema(schema.additionalProperties) ? schema.additionalProperties : {});
    const kind = this.kind(schema);
    const itemSchema = kind === 'array' && isSchema(schema.items) ? this.unwrap(schema.items) : null;
    const isReference = (s: Schema | null): boolean => s !== null && s.type === 'string' && typeof s.pattern === 'string' && s.pattern.includes('::');
    const childSource = kind === 'object' ? schema : itemSchema && this.kind(itemSchema) === 'object' ? itemSchema : null;
    return {
      kind,
      items: itemSchema ? this.kind(itemSchema) : kind === 'array' ? 'any' : null,
      localizable,
      reference: isReference(schema) || isReference(itemSchema),
      children: childSource ? this.properties(childSource) : new Map(),
    };
  }

  properties(schema: Schema): Catalog {
    const properties = isSchema(schema.properties) ? schema.properties : {};
    const fields = new Map<string, CatalogField>();
    for (const [key, value] of Object.entries(properties)) if (isSchema(value)) fields.set(key, this.field(value));
    return fields;
  }
}

/** The catalog of a published JSON schema (an empty one when the collection has none). */
export function catalogOf(jsonSchema: unknown): Catalog {
  if (!isSchema(jsonSchema)) return new Map();
  const reader = new Reader(isSchema(jsonSchema.$defs) ? jsonSchema.$defs : {});
  return reader.properties(reader.unwrap(jsonSchema));
}
