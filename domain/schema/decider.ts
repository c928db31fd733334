import type { Decider, Message } from '../decider.js';
import { DomainError, notFound } from '../errors.js';
import { CEILINGS } from '../plan.js';
import type { FieldDef } from './fields.js';
import { decideCreateField, decideDeleteField, decideUpdateField, evolveFields, type CreateField, type DeleteField, type UpdateField } from './field-commands.js';
import { generateJsonSchema, type JsonSchema } from './json-schema.js';
import { checkPublishable } from './publish-rules.js';
import type { SchemaEvent, SchemaOwner, VersionFields } from './events.js';

/** The schema of one collection or component: its versions and their fields. */

export type CreateVersion = Message<'CreateVersion', SchemaOwner & VersionFields & { readonly copy_from: string | null }>;
export type { CreateField, DeleteField, UpdateField } from './field-commands.js';
export type PublishVersion = Message<
  'PublishVersion',
  SchemaOwner & { readonly version: string; readonly published_at: string; /** The locales every localizable value must hold. */ readonly locales: readonly string[] }
>;
export type SchemaCommand = CreateVersion | CreateField | PublishVersion | UpdateField | DeleteField;

export type Version = {
  readonly key: string;
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

function version(state: SchemaState, key: string): Version {
  const found = state.versions[key];
  if (!found) throw notFound('version_not_found', 'Schema version');
  return found;
}

function createVersion({ data }: CreateVersion, state: SchemaState): SchemaEvent[] {
  const { copy_from, ...fields } = data;
  if (state.versions[data.key]) throw new DomainError('validation_error', 'The version key exists already.');
  if (state.count >= CEILINGS.schema_versions) {
    throw new DomainError('too_many_versions', `A schema holds at most ${CEILINGS.schema_versions} versions.`);
  }
  let copied: readonly FieldDef[] = [];
  if (copy_from !== null) {
    const source = state.versions[copy_from];
    if (!source) throw notFound('source_version_not_found', 'Source version');
    copied = source.fields;
  }
  return [{ type: 'SchemaVersionCreated', data: { ...fields, fields: copied } }];
}

function publish({ data }: PublishVersion, state: SchemaState): SchemaEvent[] {
  const target = version(state, data.version);
  if (target.archived) throw new DomainError('cannot_publish_archived_version', 'An archived version cannot be published.');
  if (target.version_number !== null) throw new DomainError('version_already_published', 'The version is published already.');
  if (target.fields.length === 0) throw new DomainError('cannot_publish_empty_schema', 'A version needs at least one field to be published.');
  checkPublishable(target.fields);
  return [
    {
      type: 'SchemaVersionPublished',
      data: {
        env: data.env,
        schema_key: data.schema_key,
        schema_type: data.schema_type,
        version: data.version,
        version_number: state.lastNumber + 1,
        published_at: data.published_at,
        json_schema: generateJsonSchema(target.fields, { requiredLocales: data.locales }),
        archived: state.published,
      },
    },
  ];
}

function evolve(state: SchemaState, event: SchemaEvent): SchemaState {
  switch (event.type) {
    case 'SchemaVersionCreated': {
      const created: Version = { key: event.data.key, fields: event.data.fields, version_number: null, archived: false };
      return { ...state, versions: { ...state.versions, [created.key]: created }, count: state.count + 1 };
    }
    case 'SchemaFieldCreated':
    case 'SchemaFieldUpdated':
    case 'SchemaFieldDeleted': {
      const target = state.versions[event.data.version];
      if (!target) return state;
      const changed = { ...target, fields: evolveFields(target.fields, event) };
      return { ...state, versions: { ...state.versions, [changed.key]: changed } };
    }
    case 'SchemaVersionPublished': {
      const versions = { ...state.versions };
      const target = versions[event.data.version];
      if (target) versions[target.key] = { ...target, version_number: event.data.version_number };
      const before = event.data.archived ? versions[event.data.archived] : undefined;
      if (before) versions[before.key] = { ...before, archived: true };
      return { ...state, versions, published: event.data.version, publishedSchema: event.data.json_schema, lastNumber: event.data.version_number };
    }
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
      case 'PublishVersion':
        return publish(command, state);
    }
  },
};

