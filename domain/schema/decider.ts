import type { Decider } from '../decider.js';
import { own } from '../records.js';
import { decideCreateField, decideDeleteField, decideUpdateField, evolveFields, type CreateField, type DeleteField, type UpdateField } from './field-commands.js';
import type { SchemaEvent } from './events.js';
import type { SchemaState } from './state.js';
import { createVersion, deleteVersion, evolveVersion, publishVersion, updateVersion, type VersionCommand } from './versions.js';

/** The schema of one collection or component: its versions and their fields. */

export type { CreateVersion, DeleteVersion, PublishVersion, UpdateVersion } from './versions.js';
export type { CreateField, DeleteField, UpdateField } from './field-commands.js';
export type SchemaCommand = VersionCommand | CreateField | UpdateField | DeleteField;
export type { SchemaState, Version } from './state.js';


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

