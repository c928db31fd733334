import type { Decider } from '../decider.js';
import { own } from '../records.js';
import { decideCreateField, decideDeleteField, decideUpdateField, evolveFields, type CreateField, type DeleteField, type UpdateField } from './field-commands.js';
import type { FieldDef } from './fields.js';
import type { JsonSchema } from './json-schema.js';
import type { SchemaEvent } from './events.js';
import { createVersion, deleteVersion, evolveVersion, publishVersion, updateVersion, type VersionCommand } from './versions.js';

/** The schema of one collection or component: its versions and their fields. */

export type { CreateVersion, DeleteVersion, PublishVersion, UpdateVersion } from './versions.js';
export type { CreateField, DeleteField, UpdateField } from './field-commands.js';
export type SchemaCommand = VersionCommand | CreateField | UpdateField | DeleteField;

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

function evolve(state: SchemaState, event: SchemaEvent): SchemaState {
  switch (event.type) {
    case 'SchemaFieldCreated':
    case 'SchemaFieldUpdated':
    case 'SchemaFieldDeleted': {
      const target = own(state.versions, event.data.version);
      if (!target) return state;
      const changed = { ...target, fields: evolveFields(target.fields, event) };
      return { ...state, versions: { ...state.versions, [changed.key]: changed } };
    }
    case 'SchemaVersionCreated':
    case 'SchemaVersionUpdated':
    case 'SchemaVersionDeleted':
    case 'SchemaVersionPublished':
      return evolveVersion(state, event);
  }
}

export const schema: Decider<SchemaState, SchemaCommand, SchemaEvent> = {
  initialState: () => ({ versions: {}, count: 0, published: null, publishedSchema: null, lastNumber: 0 }),
  evolve,
  decide: (command, state) => {
    switch (command.type) {
      case 'CreateVersion':
        return createVersion(command, state);
      case 'CreateField':
        return decideCreateField(command, state);
      case 'UpdateField':
        return decideUpdateField(command, state);
      case 'DeleteField':
        return decideDeleteField(command, state);
      case 'UpdateVersion':
        return updateVersion(command, state);
      case 'DeleteVersion':
        return deleteVersion(command, state);
      case 'PublishVersion':
        return publishVersion(command, state);
    }
  },
};

