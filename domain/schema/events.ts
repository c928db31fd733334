import type { Message } from '../decider.js';
import type { FieldDef, JsonSchema } from './fields.js';

export type SchemaType = 'collection' | 'component';

/** Who a schema belongs to; repeated on every event for the audit log. */
export type SchemaOwner = {
  readonly env: string;
  readonly schema_key: string;
  readonly schema_type: SchemaType;
};

/** Which schema a request names: a collection's or a component's (the `:path` of the specification). */
export type SchemaRef = { readonly type: SchemaType; readonly key: string };

export type VersionFields = {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly created_at: string;
};

export type SchemaVersionCreated = Message<'SchemaVersionCreated', SchemaOwner & VersionFields & { readonly fields: readonly FieldDef[] }>;
export type SchemaFieldCreated = Message<'SchemaFieldCreated', SchemaOwner & { readonly version: string; readonly field: FieldDef }>;
/** A field of a draft changed; a new key renamed it, and `moved` lists the old paths of its subtree that moved with it. */
export type SchemaFieldUpdated = Message<
  'SchemaFieldUpdated',
  SchemaOwner & { readonly version: string; readonly path: string; readonly field: FieldDef; readonly moved: readonly string[] }
>;
/** A field of a draft and its subtree were removed; `removed` lists every path, the field's first. */
export type SchemaFieldDeleted = Message<'SchemaFieldDeleted', SchemaOwner & { readonly version: string; readonly path: string; readonly removed: readonly string[] }>;
export type SchemaVersionPublished = Message<
  'SchemaVersionPublished',
  SchemaOwner & {
    readonly version: string;
    readonly version_number: number;
    readonly published_at: string;
    readonly json_schema: JsonSchema;
    /** The version that was published before and is archived by this publish. */
    readonly archived: string | null;
  }
>;

/** A draft's new name and description. */
export type SchemaVersionUpdated = Message<'SchemaVersionUpdated', SchemaOwner & { readonly key: string; readonly name: string; readonly description: string }>;
/** The last public fields of a version, kept by its delete event as the audit snapshot. */
export type VersionSnapshot = { readonly version_number: number | null; readonly name: string; readonly description: string };
export type SchemaVersionDeleted = Message<
  'SchemaVersionDeleted',
  SchemaOwner & { readonly key: string; readonly snapshot: VersionSnapshot; /** Paths of the fields removed with it. */ readonly field_paths: readonly string[] }
>;

export type SchemaEvent = SchemaVersionCreated | SchemaFieldCreated | SchemaVersionPublished | SchemaVersionUpdated | SchemaVersionDeleted | SchemaFieldUpdated | SchemaFieldDeleted;
