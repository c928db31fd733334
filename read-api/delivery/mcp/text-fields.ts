import type { ReadStore } from '../../../projections/ports.js';

/** Dot paths of the `text` fields in the published schema version of a collection ([] when none is published). */
export async function textFieldPaths(store: ReadStore, env: string, folder: string): Promise<string[]> {
  const versions = await store.collection('schema_versions').find({ env, schema_key: folder });
  const active = versions.find((v) => v.published_at !== null && v.published_at !== undefined && (v.archived_at === null || v.archived_at === undefined));
  if (!active) return [];
  const fields = await store.collection('schema_fields').find({ version: active._id, type: 'text' });
  return fields.map((f) => String(f.path));
}
