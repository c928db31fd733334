import type { Doc, ReadStore } from '../../projections/ports.js';
import { addressSteps, lineage, type RouteStep } from '../../api/lineage.js';
import { loadEnvModel, type EnvModel } from './models.js';

/** An address of a connected collection: the scoped route, or a published flat level of it. */
export type DeliveryRoute = {
  readonly folder: string;
  readonly steps: readonly RouteStep[];
  /** Key-bearing ancestors (root first) of a strict-reference collection; [] otherwise. */
  readonly chain: readonly string[];
  /** How many of `chain` carry their key in this address (chain.length = scoped). */
  readonly keep: number;
  readonly allowed_methods: readonly string[];
  /** The collection's display name, and the connection's texts for agents and route descriptions. */
  readonly name: string;
  readonly descriptions: RouteDescriptions;
  /** Where agent list tools cut `text` fields (null: never). */
  readonly mcp_truncate_text: number | null;
};

export type RouteDescriptions = { readonly get_one: string; readonly get_many: string; readonly search: string; readonly schema: string };

export type DeliveryApi = {
  readonly key: string;
  readonly prefix: string;
  readonly is_auth_required: boolean;
  readonly mcp_enabled: boolean;
  readonly router_introspection_enabled: boolean;
  readonly cors_origins: readonly string[];
  readonly routes: readonly DeliveryRoute[];
  /** Alias paths (`articles/news`) of the environment's collections not connected to this API, with their keys. */
  readonly unconnected: ReadonlyMap<string, string>;
};

/** `articles/news` → the key of every collection of the environment, by its alias path from the root. */
function aliasPaths(byKey: ReadonlyMap<string, Doc>): Map<string, string> {
  const paths = new Map<string, string>();
  for (const key of byKey.keys()) paths.set(lineage(byKey, key).all.map((c) => c.alias as string).join('/'), key);
  return paths;
}

function routesOf(connection: Doc, byKey: ReadonlyMap<string, Doc>): DeliveryRoute[] {
  const folder = connection.folder as string;
  const { all, chain } = lineage(byKey, folder);
  if (all.length === 0) return [];
  const published = (connection.unscoped_ancestors as string[] | undefined) ?? [];
  const levels = published.join('/') === chain.join('/') ? ((connection.unscoped_levels as number[] | undefined) ?? []) : [];
  const text = (name: string): string => (typeof connection[name] === 'string' ? (connection[name] as string) : '');
  const descriptions = { get_one: text('description_get_one'), get_many: text('description_get_many'), search: text('description_search'), schema: text('description_schema') };
  const truncate = connection.mcp_truncate_text;
  return [chain.length, ...levels].map((keep) => ({
    folder,
    steps: addressSteps(all, chain, keep),
    chain,
    keep,
    allowed_methods: (connection.allowed_methods as string[] | undefined) ?? [],
    name: String(all[all.length - 1]?.name ?? ''),
    descriptions,
    mcp_truncate_text: typeof truncate === 'number' ? truncate : truncate === null ? null : 1000,
  }));
}

/**
 * The in-process routing table of the delivery layer: environments → prefixes →
 * connected collections. Loaded from the read models at start and reloaded per
 * environment when the projection stream shows an API, connection or collection change,
 * so that serving a request costs no query.
 */
export class DeliveryRouting {
  private envs = new Map<string, ReadonlyMap<string, DeliveryApi>>();
  private models = new Map<string, EnvModel>();
  private readonly reloaded: ((env: string) => void)[] = [];

  constructor(private readonly store: ReadStore) {}

  /** Calls `listener` after each reload of an environment's table (answers built from the old one are stale). */
  onReload(listener: (env: string) => void): void {
    this.reloaded.push(listener);
  }

  async loadAll(): Promise<void> {
    const envs = await this.store.collection('environments').find({});
    for (const env of envs) await this.reload(env.key as string);
  }

  async reload(env: string): Promise<void> {
    const [apis, connections, collections] = await Promise.all([
      this.store.collection('apis').find({ env }),
      this.store.collection('api_connections').find({ env }),
      this.store.collection('collections').find({ env }),
    ]);
    const byKey = new Map(collections.map((c) => [c.key as string, c]));
    const paths = aliasPaths(byKey);
    const table = new Map<string, DeliveryApi>();
    for (const api of apis) {
      const linked = new Set(connections.filter((c) => c.api === api.key).map((c) => c.folder as string));
      table.set(api.prefix as string, {
        key: api.key as string,
        prefix: api.prefix as string,
        is_auth_required: api.is_auth_required === true,
        mcp_enabled: api.mcp_enabled !== false,
        router_introspection_enabled: api.router_introspection_enabled !== false,
        cors_origins: (api.cors_origins as string[] | undefined) ?? [],
        routes: connections.filter((c) => c.api === api.key).flatMap((c) => routesOf(c, byKey)),
        unconnected: new Map([...paths].filter(([, key]) => !linked.has(key))),
      });
    }
    const connected = new Set(connections.map((c) => c.folder as string));
    this.models.set(env, await loadEnvModel(this.store, env, collections.filter((c) => connected.has(c.key as string))));
    this.envs.set(env, table);
    for (const listener of this.reloaded) listener(env);
  }

  /** The published schemas of the environment's connected collections, and its locales. */
  model(env: string): EnvModel {
    return this.models.get(env) ?? { collections: new Map(), locales: { codes: [], default: 'en' } };
  }

  hasEnvironment(env: string): boolean {
    return this.envs.has(env);
  }

  api(env: string, prefix: string): DeliveryApi | undefined {
    return this.envs.get(env)?.get(prefix);
  }
}

/** Event types after which an environment's routing table is reloaded. */
export const ROUTING_EVENTS: ReadonlySet<string> = new Set([
  'EnvironmentCreated',
  'ApiCreated',
  'ApiUpdated',
  'ApiDeleted',
  'CollectionConnected',
  'ConnectionUpdated',
  'CollectionDisconnected',
  'CollectionCreated',
  'CollectionUpdated',
  'CollectionDeleted',
  'SchemaVersionPublished',
  'LocaleCreated',
  'LocaleUpdated',
  'LocaleDeleted',
]);
