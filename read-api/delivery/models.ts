import type { Doc, ReadStore } from '../../projections/ports.js';
import { catalogOf, type Catalog } from './query/catalog.js';

/** What the delivery layer knows of a connected collection's published schema. */
export type CollectionModel = {
  readonly key: string;
  readonly alias: string;
  /** Key of the active published schema version, null while none is published. */
  readonly version: string | null;
  readonly json_schema: Record<string, unknown> | null;
  readonly catalog: Catalog;
  /** Dot paths of the schema's fields flagged searchable / not. */
  readonly searchable: readonly string[];
  readonly non_searchable: readonly string[];
  /** Dot paths of `text` fields (what `truncate_text` shortens). */
  readonly text_paths: ReadonlySet<string>;
};

export type Locales = { readonly codes: readonly string[]; readonly default: string };

/** The schemas and locales of one environment, loaded with its routing table. */
export type EnvModel = { readonly collections: ReadonlyMap<string, CollectionModel>; readonly locales: Locales };

async function collectionModel(store: ReadStore, collection: Doc): Promise<CollectionModel> {
  const key = collection.key as string;
  const [active] = await store
    .collection('schema_versions')
    .find({ schema_key: key, archived_at: null, published_at: { $ne: null } }, { sort: [['published_at', -1]], limit: 1 });
  const fields = active ? await store.collection('schema_fields').find({ version: active.key as string }) : [];
  const top = fields.filter((f) => f.type !== undefined);
  return {
    key,
    alias: collection.alias as string,
    version: active ? (active.key as string) : null,
    json_schema: active ? ((active.json_schema as Record<string, unknown> | null) ?? null) : null,
    catalog: catalogOf(active?.json_schema),
    searchable: top.filter((f) => f.searchable === true).map((f) => f.path as string),
    non_searchable: top.filter((f) => f.searchable !== true).map((f) => f.path as string),
    text_paths: new Set(top.filter((f) => f.type === 'text').map((f) => f.path as string)),
  };
}

export async function loadLocales(store: ReadStore, env: string): Promise<Locales> {
  const docs = await store.collection('locales').find({ env }, { sort: [['created_at', 1]] });
  const codes = docs.map((d) => d.code as string);
  const fallback = codes[0] ?? 'en';
  return { codes, default: (docs.find((d) => d.is_default === true)?.code as string | undefined) ?? fallback };
}

/** The models of the given collections (the connected ones) and the environment's locales. */
export async function loadEnvModel(store: ReadStore, env: string, collections: readonly Doc[]): Promise<EnvModel> {
  const models = await Promise.all(collections.map((c) => collectionModel(store, c)));
  return { collections: new Map(models.map((m) => [m.key, m])), locales: await loadLocales(store, env) };
}
