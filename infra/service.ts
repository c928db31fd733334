import type { Express } from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CommandBus } from '../commands/command-bus.js';
import type { EventStore, StoredEvent } from '../commands/ports.js';
import { DataValidator } from '../commands/data-validator.js';
import type { ResourceQuota } from '../commands/resource-quota.js';
import { asDomainEvent, readModelTarget } from '../projections/read-model-target.js';
import { apiKeysProjection } from '../projections/api-keys.js';
import { auditLogProjection } from '../projections/audit-log.js';
import { collectionCascadeProjection } from '../projections/collection-cascade.js';
import { collectionsProjection } from '../projections/collections.js';
import { componentsProjection } from '../projections/components.js';
import { deliveryApisProjection } from '../projections/delivery-apis.js';
import { deliveryTarget } from '../projections/delivery-index.js';
import { localesProjection } from '../projections/locales.js';
import { resourcesProjection } from '../projections/resources.js';
import { revisionsProjection } from '../projections/revisions.js';
import { ProjectionRunner, Projections } from '../projections/runner.js';
import { schemaFieldsProjection } from '../projections/schema-fields.js';
import { schemaVersionsProjection } from '../projections/schema-versions.js';
import { tenancyProjection } from '../projections/tenancy.js';
import { McpEndpoint } from '../read-api/delivery/mcp/endpoint.js';
import { DeliveryRouting, ROUTING_EVENTS } from '../read-api/delivery/routing.js';
import { jwtSecret } from './auth/jwt-secret.js';
import { ensureBootstrap, type BootstrapFile } from './bootstrap.js';
import type { Config } from './config.js';
import { deliveryApp } from './http/delivery-app.js';
import { frontRouter } from './http/front.js';
import { closeGracefully } from './http/shutdown.js';
import { managementApp } from './http/management-app.js';
import { createLogger, logErrors, type Logger } from './logger.js';
import { createMetrics } from './observability/metrics.js';
import { projectionReports, readiness } from './observability/readiness.js';
import { timedEventStore } from './observability/timed-event-store.js';
import { closeStores, openStores } from './stores.js';

export type Service = {
  readonly urls: { readonly base: string; readonly delivery: string };
  readonly bootstrap: BootstrapFile | null;
  readonly bootstrapCreated: boolean;
  /** The projection runners (pause / resume one by name). */
  readonly projections: Projections;
  /** Both HTTP interfaces, for what walks their route tables (tests, API documents). */
  readonly apps: { readonly management: Express; readonly delivery: Express };
  stop(): Promise<void>;
};

function listen(app: (req: never, res: never) => void, host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = (app as unknown as { listen: (port: number, host: string, cb: () => void) => Server }).listen(port, host, () => resolve(server));
    server.once('error', reject);
  });
}

const urlOf = (host: string, server: Server): string => {
  const { port } = server.address() as AddressInfo;
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
};

export type ServiceOptions = {
  /**
   * A test seam: wraps the opened event store before anything uses it (command bus,
   * projections, bootstrap), e.g. to let another writer win an append. `npm start` never sets it.
   */
  readonly wrapEventStore?: (store: EventStore) => EventStore;
};

/** The composition root: stores, command bus, projections, both HTTP interfaces, first-start bootstrap. */
export async function startService(config: Config, logger: Logger = createLogger(config.logLevel), options: ServiceOptions = {}): Promise<Service> {
  const log = logErrors(logger);
  const stores = await openStores(config);
  const { readStore, searchIndex } = stores;
  const lagOf = { eventStore: stores.eventStore, projections: null as Projections | null, maxLag: config.readyMaxLag, timeoutMs: 2000 };
  const metrics = createMetrics(async () => (lagOf.projections ? projectionReports({ ...lagOf, projections: lagOf.projections }) : []));
  const eventStore = timedEventStore(options.wrapEventStore ? options.wrapEventStore(stores.eventStore) : stores.eventStore, metrics);
  const bus = new CommandBus(eventStore, (hit) => metrics.cacheLookups.inc({ cache: 'aggregate_state', result: hit ? 'hit' : 'miss' }));
  const routing = new DeliveryRouting(readStore);

  const readModels = readModelTarget(readStore, [
    tenancyProjection,
    collectionsProjection,
    componentsProjection,
    schemaVersionsProjection,
    schemaFieldsProjection,
    deliveryApisProjection,
    resourcesProjection,
    apiKeysProjection,
    auditLogProjection,
    collectionCascadeProjection,
    localesProjection,
  ]);
  await readModels.prepare();
  // Revision payloads are written by their own consumer: resource lists do not wait for them.
  const revisions = readModelTarget(readStore, [revisionsProjection], 'revisions');
  await revisions.prepare();
  const refreshRouting = async (batch: readonly StoredEvent[]): Promise<void> => {
    const envs = new Set<string>();
    for (const stored of batch) {
      if (!ROUTING_EVENTS.has(stored.type)) continue;
      const event = asDomainEvent(stored);
      envs.add(event.type === 'EnvironmentCreated' ? event.data.key : (event.data as { env: string }).env);
    }
    for (const env of envs) await routing.reload(env);
  };
  const projections = new Projections([
    new ProjectionRunner(eventStore, readModels, { log, afterBatch: refreshRouting }),
    new ProjectionRunner(eventStore, revisions, { log }),
    new ProjectionRunner(eventStore, deliveryTarget(searchIndex), { log }),
  ]);
  lagOf.projections = projections;
  await projections.start();
  await projections.waitFor(await eventStore.headPosition(), 10 * 60_000);
  await routing.loadAll();

  const secret = jwtSecret(config.dataDir, config.jwtSecret);
  const validator = new DataValidator();
  const resourceQuota: ResourceQuota =
    config.resourceLimit === null
      ? null
      : {
          limit: config.resourceLimit,
          existing: async (env) => (await readStore.collection('resources').find({ env })).map((doc) => ({ folder: String(doc.folder), key: doc._id })),
        };
  let draining = false;
  const front = { logger, metrics, readiness: () => readiness({ ...lagOf, projections, draining: () => draining }) };
  const management = managementApp({
    front: frontRouter(front, 'management'),
    bus,
    validator,
    projections,
    readStore,
    searchIndex,
    waitTimeoutMs: config.waitTimeoutMs,
    resourceQuota,
    jwtSecret: secret,
    log,
  });
  const mcp = new McpEndpoint({ routing, readStore });
  const delivery = deliveryApp({ routing, searchIndex, mcp, log, front: frontRouter(front, 'delivery') });
  const servers = [await listen(management as never, config.host, config.port), await listen(delivery as never, config.host, config.deliveryPort)];
  const urls = { base: urlOf(config.host, servers[0]!), delivery: urlOf(config.host, servers[1]!) };

  const { file, created } = await ensureBootstrap(config, { bus, eventStore, projections, jwtSecret: secret, urls });

  let stopping: Promise<void> | null = null;
  return {
    urls,
    bootstrap: file,
    bootstrapCreated: created,
    projections,
    apps: { management, delivery },
    /** Graceful: readiness turns 503, in-flight requests finish, agent sessions end, projections commit their batch and checkpoint, stores close. */
    stop() {
      stopping ??= (async () => {
        draining = true;
        await Promise.all(servers.map((s) => closeGracefully(s, config.shutdownGraceMs)));
        mcp.close();
        await projections.stop();
        await closeStores(stores);
      })();
      return stopping;
    },
  };
}
