import type { FieldDef, JsonSchema } from './fields.js';

/** The state of a schema (one collection's or component's versions), shared by its decider and version and field code. */

export type Version = {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly fields: readonly FieldDef[];
  readonly version_number: number | null;
  readonly archived: boolean;
};

export type SchemaState = {
  readonly versions: Readonly<Record<string, Version>>;
  readonly count: number;
  readonly published: string | null;
  /** The JSON schema of the published version: what resource data is validated against. */
  readonly publishedSchema: JsonSchema | null;
  readonly lastNumber: number;
};
