import type { Message } from '../decider.js';
import { DomainError, notFound } from '../errors.js';
import { CEILINGS } from '../plan.js';
import { has, own } from '../records.js';
import type { SchemaState, Version } from './state.js';
import type { SchemaEvent, SchemaOwner, SchemaVersionDeleted, VersionFields } from './events.js';
import type { FieldDef, JsonSchema } from './fields.js';
import { generateJsonSchema } from './json-schema.js';
import { checkPublishable } from './publish-rules.js';

/**
 * The schema version state machine (specification, "Schema version state"):
 * draft → published → archived; drafts and archived versions can be deleted, only drafts edited.
 */

export type CreateVersion = Message<'CreateVersion', SchemaOwner & VersionFields & { readonly copy_from: string | null }>;
/** A field left out keeps its value. */
export type UpdateVersion = Message<'UpdateVersion', SchemaOwner & { readonly key: string; readonly name?: string; readonly description?: string }>;
export type DeleteVersion = Message<'DeleteVersion', SchemaOwner & { readonly key: string }>;
export type PublishVersion = Message<
  'PublishVersion',
  SchemaOwner & {
    readonly version: string;
    readonly published_at: string;
    /** Fact from the handler: the locales every localizable value must hold. */
    readonly locales: readonly string[];
    /** The request's `check_valid_drafts` (default false). */
    readonly check_valid_drafts?: boolean;
    /** Fact from the handler: draft revisions of the collection whose data the new schema accepts. */
    readonly compatible_drafts?: number;
    /** Fact from the handler: the collection's `auto_remove_schema_versions` (null or absent keeps every archived version). */
    readonly keep_archived?: number | null;
  }
>;
export type VersionCommand = CreateVersion | UpdateVersion | DeleteVersion | PublishVersion;

export function versionOf(state: SchemaState, key: string): Version {
  const found = own(state.versions, key);
  if (!found) throw notFound('version_not_found', 'Schema version');
  return found;
}

/** The JSON schema publishing this version generates: what resource data is validated against. */
export const candidateSchema = (version: Version, locales: readonly string[]): JsonSchema =>
  generateJsonSchema(version.fields, { requiredLocales: locales });

const ownerOf = ({ env, schema_key, schema_type }: SchemaOwner): SchemaOwner => ({ env, schema_key, schema_type });

function deleted(owner: SchemaOwner, version: Version): SchemaVersionDeleted {
  const { key, version_number, name, description, fields } = version;
  return { type: 'SchemaVersionDeleted', data: { ...ownerOf(owner), key, snapshot: { version_number, name, description }, field_paths: fields.map((f) => f.path) } };
}

export function createVersion({ data }: CreateVersion, state: SchemaState): SchemaEvent[] {
  const { copy_from, ...fields } = data;
  if (has(state.versions, data.key)) throw new DomainError('validation_error', 'The version key exists already.');
  if (state.count >= CEILINGS.schema_versions) {
    throw new DomainError('too_many_versions', `A schema holds at most ${CEILINGS.schema_versions} versions.`, { limit: CEILINGS.schema_versions });
  }
  let copied: readonly FieldDef[] = [];
  if (copy_from !== null) {
    const source = own(state.versions, copy_from);
    if (!source) throw notFound('source_version_not_found', 'Source version');
    copied = source.fields;
  }
  return [{ type: 'SchemaVersionCreated', data: { ...fields, fields: copied } }];
}

export function updateVersion({ data }: UpdateVersion, state: SchemaState): SchemaEvent[] {
  const target = versionOf(state, data.key);
  if (target.version_number !== null) {
    throw new DomainError('cannot_update_published_model', 'Only draft versions can be changed; a published or archived version is immutable.');
  }
  const name = data.name ?? target.name;
  const description = data.description ?? target.description;
  if (name === target.name && description === target.description) return [];
  return [{ type: 'SchemaVersionUpdated', data: { ...ownerOf(data), key: target.key, name, description } }];
}

export function deleteVersion({ data }: DeleteVersion, state: SchemaState): SchemaEvent[] {
  const target = versionOf(state, data.key);
  if (state.published === target.key) throw new DomainError('cannot_delete_published_schema', 'The published version cannot be deleted.');
  return [deleted(data, target)];
}

/** Archived versions beyond `keep`, oldest archived first: what a publish removes. */
function overflow(state: SchemaState, keep: number): Version[] {
  const archived = Object.values(state.versions).filter((v) => v.archived || v.key === state.published);
  archived.sort((a, b) => (a.version_number ?? 0) - (b.version_number ?? 0));
  return archived.slice(0, Math.max(0, archived.length - keep));
}

export function publishVersion({ data }: PublishVersion, state: SchemaState): SchemaEvent[] {
  const target = versionOf(state, data.version);
  if (target.archived) throw new DomainError('cannot_publish_archived_version', 'An archived version cannot be published.');
  if (target.version_number !== null) throw new DomainError('version_already_published', 'The version is published already.');
  if (target.fields.length === 0) throw new DomainError('cannot_publish_empty_schema', 'A version needs at least one field to be published.');
  checkPublishable(target.fields);
  const compatible = data.compatible_drafts ?? 0;
  if (data.check_valid_drafts === true && compatible > 0) {
    throw new DomainError('valid_drafts_exist', 'Draft revisions that this version accepts exist; publish them first or publish without check_valid_drafts.', {
      compatible_drafts: compatible,
    });
  }
  const removed = data.keep_archived === undefined || data.keep_archived === null ? [] : overflow(state, data.keep_archived);
  return [
    {
      type: 'SchemaVersionPublished',
      data: {
        ...ownerOf(data),
        version: data.version,
        version_number: state.lastNumber + 1,
        published_at: data.published_at,
        json_schema: candidateSchema(target, data.locales),
        archived: state.published,
      },
    },
    ...removed.map((version) => deleted(data, version)),
  ];
}

/** The state change of a version event (fields' events are evolved by the decider). */
export function evolveVersion(state: SchemaState, event: SchemaEvent): SchemaState {
  switch (event.type) {
    case 'SchemaVersionCreated': {
      const { key, name, description, fields } = event.data;
      // `?? []`: a copy from an inherited name was stored without fields before docs/decisions/0030.
      const created: Version = { key, name, description, fields: fields ?? [], version_number: null, archived: false };
      return { ...state, versions: { ...state.versions, [key]: created }, count: state.count + 1 };
    }
    case 'SchemaVersionUpdated': {
      const target = own(state.versions, event.data.key);
      if (!target) return state;
      return { ...state, versions: { ...state.versions, [target.key]: { ...target, name: event.data.name, description: event.data.description } } };
    }
    case 'SchemaVersionDeleted': {
      if (!has(state.versions, event.data.key)) return state;
      const { [event.data.key]: _gone, ...versions } = state.versions;
      return { ...state, versions, count: state.count - 1 };
    }
    case 'SchemaVersionPublished': {
      let versions = state.versions;
      const target = own(versions, event.data.version);
      if (target) versions = { ...versions, [target.key]: { ...target, version_number: event.data.version_number } };
      const before = event.data.archived === null ? undefined : own(versions, event.data.archived);
      if (before) versions = { ...versions, [before.key]: { ...before, archived: true } };
      return { ...state, versions, published: event.data.version, publishedSchema: event.data.json_schema, lastNumber: event.data.version_number };
    }
    default:
      return state;
  }
}
