import { notFound } from '../domain/errors.js';
import type { Doc, ReadStore } from '../projections/ports.js';

/** The document `key` of a read-model collection when it has every field of `where`, else 404 `code` ("{what} not found."). */
export async function findDoc(store: ReadStore, collection: string, key: string, where: Readonly<Record<string, unknown>>, code: string, what: string): Promise<Doc> {
  const doc = await store.collection(collection).get(key);
  if (!doc || Object.entries(where).some(([field, value]) => doc[field] !== value)) throw notFound(code, what);
  return doc;
}
