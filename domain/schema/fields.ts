/** JSON Schema as generated on publish; plain data so it can live in an event. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** Field definitions of a schema version (the fields interface of reference §3.6). */

export const FIELD_TYPES = [
  'string',
  'text',
  'integer',
  'number',
  'boolean',
  'date',
  'time',
  'datetime',
  'json',
  'reference',
  'relation',
  'object',
  'array',
  'nested',
  'vector',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** What an array holds (`meta.items`): one scalar type, a reference, or objects made of the array's child fields. */
export const ARRAY_ITEM_TYPES = ['string', 'text', 'integer', 'number', 'boolean', 'date', 'time', 'datetime', 'reference', 'object'] as const;
export type ArrayItemType = (typeof ARRAY_ITEM_TYPES)[number];

/** How the child fields of an object array combine per item: anyOf, allOf, oneOf. */
export const MATCH_MODES = ['any', 'all', 'one'] as const;
export type MatchMode = (typeof MATCH_MODES)[number];

export const VECTOR_DIMENSIONS = [256, 384, 768, 1024, 1536] as const;

/** Type options and validations (product decision 11, plus `items` for arrays: docs/decisions/0025). */
export type FieldMeta = {
  readonly enum?: readonly (string | number)[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly items?: ArrayItemType;
  readonly match?: MatchMode;
  readonly dimensions?: number;
  readonly component?: string;
  readonly component_version?: string;
  readonly auto_update?: boolean;
  readonly collections?: readonly string[];
};

export const META_KEYS = [
  'enum',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'items',
  'match',
  'dimensions',
  'component',
  'component_version',
  'auto_update',
  'collections',
] as const satisfies readonly (keyof FieldMeta)[];

/**
 * What a nested field's pinned component version was when the field was defined: its
 * published JSON schema, how many fields it holds (its own nested ones included) and how
 * deep its own nesting goes. A published version never changes, so the copy stays true.
 */
export type NestedPin = {
  readonly json_schema: JsonSchema;
  readonly fields: number;
  readonly depth: number;
};

export type FieldDef = {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  /** Dot-joined keys from the top of the schema. */
  readonly path: string;
  readonly parent: string | null;
  readonly type: FieldType;
  readonly meta: FieldMeta;
  readonly required: boolean;
  readonly nullable: boolean;
  readonly multiple: boolean;
  readonly localizable: boolean;
  readonly searchable: boolean;
  readonly private: boolean;
  readonly vectorizable: boolean;
  /** Nested fields only: facts about the pinned component version. */
  readonly pin?: NestedPin;
};

export const STRING_MAX_LENGTH = 255;

/** A field that holds child fields: an object, or an array of objects. */
export const isContainer = (field: Pick<FieldDef, 'type' | 'meta'>): boolean =>
  field.type === 'object' || (field.type === 'array' && field.meta.items === 'object');
