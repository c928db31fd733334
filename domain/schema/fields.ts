/** Field definitions of a schema version (the fields interface of reference §3.6). */

export const FIELD_TYPES = ['string', 'text', 'integer', 'number', 'boolean'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export type FieldMeta = {
  readonly enum?: readonly (string | number)[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
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
};

export const STRING_MAX_LENGTH = 255;
