import { nonCollectionCannotHaveModel, notFound } from '../domain/errors.js';
import type { SchemaRef } from '../domain/schema/events.js';
import type { Doc, ReadStore } from '../projections/ports.js';
import { findDoc } from '../api/find-doc.js';

export const findCollection = (store: ReadStore, env: string, key: string): Promise<Doc> =>
  findDoc(store, 'collections', key, { env }, 'collection_not_found', 'Collection');

export const findComponent = (store: ReadStore, env: string, key: string): Promise<Doc> =>
  findDoc(store, 'components', key, { env }, 'component_not_found', 'Component');

export const findVersion = (store: ReadStore, schemaKey: string, key: string): Promise<Doc> =>
  findDoc(store, 'schema_versions', key, { schema_key: schemaKey }, 'version_not_found', 'Schema version');

export const findApi = (store: ReadStore, env: string, key: string): Promise<Doc> => findDoc(store, 'apis', key, { env }, 'api_not_found', 'API');

export const findResource = (store: ReadStore, folder: string, key: string): Promise<Doc> =>
  findDoc(store, 'resources', key, { folder }, 'resource_not_found', 'Resource');

export const findRevision = (store: ReadStore, resource: string, key: string): Promise<Doc> =>
  findDoc(store, 'revisions', key, { resource }, 'revision_not_found', 'Revision');

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
  return (await findComponent(store, env, ref.key)).key as string;
}
