import type { Decider, Message } from '../decider.js';
import { DomainError } from '../errors.js';
import { CEILINGS } from '../plan.js';
import type { FieldDef } from './fields.js';
import type { JsonSchema } from './json-schema.js';
import type { SchemaEvent, SchemaOwner } from './events.js';
import { createVersion, deleteVersion, evolveVersion, publishVersion, updateVersion, versionOf, type VersionCommand } from './versions.js';

/** The schema of one collection or component: its versions and their fields. */

export type { CreateVersion, DeleteVersion, PublishVersion, UpdateVersion } from './versions.js';
export type CreateField = Message<'CreateField', SchemaOwner & { readonly version: string; readonly field: FieldDef }>;
export type SchemaCommand = VersionCommand | CreateField;

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

function createField({ data }: CreateField, state: SchemaState): SchemaEvent[] {
  const target = versionOf(state, data.version);
  if (target.version_number !== null) throw new DomainError('cannot_update_published_model', 'A published version cannot be changed.');
  if (target.fields.some((f) => f.path === data.field.path)) {
    throw new DomainError('validation_error', 'A field with this key exists already.', { key: ['must be unique within its parent'] });
  }
  if (data.field.parent !== null && !target.fields.some((f) => f.path === data.field.parent)) {
    throw new DomainError('validation_error', 'The parent field does not exist.', { parent: ['not found'] });
  }
  if (target.fields.length >= CEILINGS.fields_per_version) {
    throw new DomainError('too_many_fields', `A version holds at most ${CEILINGS.fields_per_version} fields.`);
  }
  return [{ type: 'SchemaFieldCreated', data }];
}

function evolve(state: SchemaState, event: SchemaEvent): SchemaState {
  switch (event.type) {
    case 'SchemaFieldCreated': {
      const target = state.versions[event.data.version];
      if (!target) return state;
      const changed = { ...target, fields: [...target.fields, event.data.field] };
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
        return createField(command, state);
      case 'UpdateVersion':
        return updateVersion(command, state);
      case 'DeleteVersion':
        return deleteVersion(command, state);
      case 'PublishVersion':
        return publishVersion(command, state);
    }
  },
};

