import { notFound } from '../domain/errors.js';
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

/** The key of the schema a request names, after checking its collection or component exists: 404 otherwise. */
export async function findSchemaKey(store: ReadStore, env: string, ref: SchemaRef): Promise<string> {
  if (ref.type === 'collection') return (await findCollection(store, env, ref.key)).key as string;
  const doc = await store.collection('components').get(ref.key);
  if (!doc || doc.env !== env) throw notFound('component_not_found', 'Component');
  return doc.key as string;
}

/** A revision of the resource, or 404 revision_not_found. */
export async function findRevision(store: ReadStore, resource: string, key: string): Promise<Doc> {
  const doc = await store.collection('revisions').get(key);
  if (!doc || doc.resource !== resource) throw notFound('revision_not_found', 'Revision');
  return doc;
}
