import type { Doc, ReadStore } from '../../projections/ports.js';

/** A connected collection as the delivery layer routes to it. */
export type DeliveryRoute = {
  readonly folder: string;
  /** Alias path of the collection, `/`-joined (`blog/articles`). */
  readonly path: string;
  readonly allowed_methods: readonly string[];
};

export type DeliveryApi = {
  readonly key: string;
  readonly prefix: string;
  readonly is_auth_required: boolean;
  readonly mcp_enabled: boolean;
  readonly router_introspection_enabled: boolean;
  readonly cors_origins: readonly string[];
  readonly routes: ReadonlyMap<string, DeliveryRoute>;
};

/**
 * The in-process routing table of the delivery layer: environments → prefixes →
 * connected collections. Loaded from the read models at start and reloaded per
 * environment when the projection stream shows an API, connection or collection change,
 * so that serving a request costs no query.
 */
export class DeliveryRouting {
  private envs = new Map<string, ReadonlyMap<string, DeliveryApi>>();

  constructor(private readonly store: ReadStore) {}

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
    const paths = new Map(collections.map((c: Doc) => [c.key as string, (c.path as string).replace(/\./g, '/')]));
    const table = new Map<string, DeliveryApi>();
    for (const api of apis) {
      const routes = new Map<string, DeliveryRoute>();
      for (const connection of connections.filter((c) => c.api === api.key)) {
        const path = paths.get(connection.folder as string);
        if (path === undefined) continue;
        routes.set(path, { folder: connection.folder as string, path, allowed_methods: connection.allowed_methods as string[] });
      }
      table.set(api.prefix as string, {
        key: api.key as string,
        prefix: api.prefix as string,
        is_auth_required: api.is_auth_required === true,
        mcp_enabled: api.mcp_enabled !== false,
        router_introspection_enabled: api.router_introspection_enabled !== false,
        cors_origins: (api.cors_origins as string[] | undefined) ?? [],
        routes,
      });
    }
    this.envs.set(env, table);
  }

  hasEnvironment(env: string): boolean {
    return this.envs.has(env);
  }

  api(env: string, prefix: string): DeliveryApi | undefined {
    return this.envs.get(env)?.get(prefix);
  }
}

/** Event types after which an environment's routing table is reloaded. */
export const ROUTING_EVENTS: ReadonlySet<string> = new Set(['EnvironmentCreated', 'ApiCreated', 'CollectionConnected', 'CollectionCreated']);
