import { nonCollectionCannotHaveModel, notFound } from '../domain/errors.js';
import type { SchemaRef } from '../domain/schema/events.js';
import type { Doc, ReadStore } from '../projections/ports.js';

/** A collection of the environment, or 404 collection_not_found. */
export async function findCollection(store: ReadStore, env: string, key: string): Promise<Doc> {
  const doc = await store.collection('collections').get(key);
  if (!doc || doc.env !== env) throw notFound('collection_not_found', 'Collection');
  return doc;
}

/** A schema version of the collection, or 404 version_not_found. */
export async function findVersion(store: ReadStore, schemaKey: string, key: string): Promise<Doc> {
  const doc = await store.collection('schema_versions').get(key);
  if (!doc || doc.schema_key !== schemaKey) throw notFound('version_not_found', 'Schema version');
  return doc;
}

/** A delivery API of the environment, or 404 api_not_found. */
export async function findApi(store: ReadStore, env: string, key: string): Promise<Doc> {
  const doc = await store.collection('apis').get(key);
  if (!doc || doc.env !== env) throw notFound('api_not_found', 'API');
  return doc;
}

/** A resource of the collection, or 404 resource_not_found. */
export async function findResource(store: ReadStore, folder: string, key: string): Promise<Doc> {
  const doc = await store.collection('resources').get(key);
  if (!doc || doc.folder !== folder) throw notFound('resource_not_found', 'Resource');
  return doc;
}

/** A component of the environment, or null. */
async function componentOf(store: ReadStore, env: string, key: string): Promise<Doc | null> {
  const doc = await store.collection('components').get(key);
  return doc && doc.env === env ? doc : null;
}

/**
 * The key of the schema a request names, after checking its collection or component exists:
 * 404 otherwise, and 422 non_collection_cannot_have_model when the collection form names a component.
 */
export async function findSchemaKey(store: ReadStore, env: string, ref: SchemaRef): Promise<string> {
  if (ref.type === 'collection') {
    const doc = await store.collection('collections').get(ref.key);
    if (doc && doc.env === env) return doc.key as string;
    if (await componentOf(store, env, ref.key)) throw nonCollectionCannotHaveModel(ref.key);
    throw notFound('collection_not_found', 'Collection');
  }
  const doc = await componentOf(store, env, ref.key);
  if (!doc) throw notFound('component_not_found', 'Component');
  return doc.key as string;
}

/** A revision of the resource, or 404 revision_not_found. */
export async function findRevision(store: ReadStore, resource: string, key: string): Promise<Doc> {
  const doc = await store.collection('revisions').get(key);
  if (!doc || doc.resource !== resource) throw notFound('revision_not_found', 'Revision');
  return doc;
}
