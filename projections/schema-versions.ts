import type { FieldDef } from '../domain/schema/fields.js';
import type { SchemaOwner } from '../domain/schema/events.js';
import type { DocChange, ReadModelProjection } from './read-model-target.js';
import { patch, put, remove } from './read-model-target.js';

/** Schema versions and their fields. */

export const fieldId = (version: string, path: string): string => `${version}:${path}`;

const fieldDoc = (owner: SchemaOwner, version: string, field: FieldDef, created_at: string): DocChange =>
  put('schema_fields', fieldId(version, field.path), { ...field, env: owner.env, schema_key: owner.schema_key, version, created_at });

export const schemaVersionsProjection: ReadModelProjection = {
  indexes: { schema_versions: [['schema_key', 'created_at']], schema_fields: [['version', 'path']] },
  changes: (event, stored) => {
    switch (event.type) {
      case 'SchemaVersionCreated': {
        const { fields, ...version } = event.data;
        return [
          put('schema_versions', version.key, { ...version, version_number: null, published_at: null, archived_at: null, json_schema: null }),
          // A throw here would stall the read side on this event for good: one stored without fields (docs/decisions/0030) has none.
          ...(fields ?? []).map((field) => fieldDoc(event.data, version.key, field, version.created_at)),
        ];
      }
      case 'SchemaFieldCreated':
        return [fieldDoc(event.data, event.data.version, event.data.field, stored.metadata.timestamp)];
      case 'SchemaVersionPublished': {
        const { version, version_number, published_at, json_schema, archived } = event.data;
        const changes = [patch('schema_versions', version, { version_number, published_at, json_schema })];
        if (archived) changes.push(patch('schema_versions', archived, { archived_at: published_at }));
        return changes;
      }
      case 'SchemaVersionUpdated':
        return [patch('schema_versions', event.data.key, { name: event.data.name, description: event.data.description })];
      case 'SchemaVersionDeleted': {
        const { key, field_paths } = event.data;
        return [remove('schema_versions', key), ...field_paths.map((path) => remove('schema_fields', fieldId(key, path)))];
      }
      default:
        return [];
    }
  },
};
