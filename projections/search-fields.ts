import type { DomainEvent } from '../domain/events.js';
import type { FieldDef } from '../domain/schema/fields.js';
import { rebase } from '../domain/schema/field-tree.js';

/** What search needs of a collection field: where it is, and how it is searched. */
export type SearchField = {
  readonly path: string;
  readonly type: string;
  readonly localizable: boolean;
  readonly searchable: boolean;
  readonly vectorizable: boolean;
  /** `vector` fields: their width. */
  readonly dimensions: number | null;
};

/** One value the delivery index keeps about schemas: `apply` gets the stored value (or null) and returns the new one (null removes it). */
export type MetaChange = { readonly id: string; readonly apply: (current: unknown) => unknown };

export const versionFieldsId = (env: string, version: string): string => `fields:${env}:${version}`;
export const activeVersionId = (env: string, folder: string): string => `active:${env}:${folder}`;

export function searchField(field: FieldDef): SearchField {
  const dimensions = typeof field.meta.dimensions === 'number' ? field.meta.dimensions : null;
  return { path: field.path, type: field.type, localizable: field.localizable, searchable: field.searchable, vectorizable: field.vectorizable, dimensions };
}

const fieldsOf = (current: unknown): SearchField[] => (Array.isArray(current) ? (current as SearchField[]) : []);

/**
 * The delivery index's own copy of each collection version's field flags and of the version
 * each collection publishes, so that embedding on publish needs no other read model and a
 * rebuild from zero gives the same index (docs/decisions/0051).
 */
export function searchFieldChanges(event: DomainEvent): readonly MetaChange[] {
  switch (event.type) {
    case 'SchemaVersionCreated': {
      if (event.data.schema_type !== 'collection') return [];
      const fields = event.data.fields.map(searchField);
      return [{ id: versionFieldsId(event.data.env, event.data.key), apply: () => fields }];
    }
    case 'SchemaFieldCreated': {
      if (event.data.schema_type !== 'collection') return [];
      const field = searchField(event.data.field);
      return [{ id: versionFieldsId(event.data.env, event.data.version), apply: (current) => [...fieldsOf(current).filter((f) => f.path !== field.path), field] }];
    }
    case 'SchemaFieldUpdated': {
      if (event.data.schema_type !== 'collection') return [];
      const { path, moved } = event.data;
      const field = searchField(event.data.field);
      const apply = (current: unknown) =>
        fieldsOf(current).map((f) => (f.path === path ? field : moved.includes(f.path) ? { ...f, path: rebase(f.path, path, field.path) } : f));
      return [{ id: versionFieldsId(event.data.env, event.data.version), apply }];
    }
    case 'SchemaFieldDeleted': {
      if (event.data.schema_type !== 'collection') return [];
      const removed = new Set(event.data.removed);
      return [{ id: versionFieldsId(event.data.env, event.data.version), apply: (current) => fieldsOf(current).filter((f) => !removed.has(f.path)) }];
    }
    case 'SchemaVersionDeleted':
      return event.data.schema_type === 'collection' ? [{ id: versionFieldsId(event.data.env, event.data.key), apply: () => null }] : [];
    case 'SchemaVersionPublished': {
      if (event.data.schema_type !== 'collection') return [];
      const { env, schema_key, version } = event.data;
      return [{ id: activeVersionId(env, schema_key), apply: () => version }];
    }
    default:
      return [];
  }
}

/** The fields of a collection's published version, from the stored search metadata. */
export async function activeFields(meta: (id: string) => Promise<unknown>, env: string, folder: string): Promise<SearchField[]> {
  const version = await meta(activeVersionId(env, folder));
  if (typeof version !== 'string') return [];
  const fields = await meta(versionFieldsId(env, version));
  return Array.isArray(fields) ? (fields as SearchField[]) : [];
}
