import express, { type Express } from 'express';
import { createServer, type Server, type ServerOptions } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StoredEvent } from '../commands/ports.js';
import { cascadeReaction } from '../commands/reactors/cascade-reactor.js';
import { reactorTarget, sparseCheckpoints } from '../commands/reactors/reactor-target.js';
import { Scheduler, SCHEDULE_EVENTS, SCHEDULER } from '../commands/reactors/scheduler.js';
import { webhookReactor } from '../commands/reactors/webhook-reactor.js';
import { schedulesProjection } from '../projections/schedules.js';
import { WebhookSender } from './webhooks/sender.js';
import { asDomainEvent, readModelTarget } from '../projections/read-model-target.js';
import type { Consumer, Projections } from '../projections/runner.js';
import { CheckpointWatcher } from '../projections/checkpoint-watcher.js';
import { CREDENTIAL_EVENTS, DeliveryAuth } from '../read-api/delivery/auth.js';
import { LazyMcpEndpoint } from '../read-api/delivery/mcp/lazy-endpoint.js';
import { RequestDocs } from './http/request-docs.js';
import { EnvironmentStatus } from '../read-api/environment-status.js';
import { managementRateLimit, RequestMeter } from './http/rate-limit.js';
import { DeliveryRouting, ROUTING_EVENTS } from '../read-api/delivery/routing.js';
import { ServedCache } from '../read-api/delivery/served-cache.js';
import { evictChanged } from '../read-api/delivery/served-invalidation.js';
import { jwtSecret } from './auth/jwt-secret.js';
import { prepareBootstrap, writeBootstrap, type BootstrapFile } from './bootstrap.js';
import type { Config } from './config.js';
import { StaticWordEmbedder } from './embeddings/static-embedder.js';
import { prepareBodyShape } from '../read-api/delivery/search/body-schema.js';
import { deliveryServer, type DeliveryServer } from './http/delivery-server.js';
import { frontRouter, operationsRouter } from './http/front.js';
import { consoleFiles } from './http/console.js';
import { closeGracefully } from './http/shutdown.js';
import { expressServerOptions, managementApp } from './http/management-app.js';
import { createLogger, logErrors, type Logger } from './logger.js';
import { readiness } from './observability/readiness.js';
import { markStage, stageNow, tracedListener } from './observability/stage-trace.js';
import { closeStores, type Stores } from './stores.js';
import { composeCore, type BatchHooks, type CoreOptions } from './core.js';
import { checkpointSigner } from './audit/checkpoint-signer.js';
import { loadSigningKey } from './audit/signing-key.js';

export type Service = {
  /** `base`: the management interface (a worker's operations port); `delivery`: '' where this process serves none (docs/decisions/0388). */
  readonly urls: { readonly base: string; readonly delivery: string };
  readonly bootstrap: BootstrapFile | null;
  readonly bootstrapCreated: boolean;
  /** The projection runners (pause / resume one by name). */
  readonly projections: Projections;
  /** Both HTTP interfaces, for what walks their route tables (tests, API documents). */
  readonly apps: { readonly management: Express; readonly delivery: DeliveryServer };
  /** Batches the read side's thread committed; 0 when it is off (docs/decisions/0307). */
  stop(): Promise<void>;
};

function listen(app: (req: never, res: never) => void, host: string, port: number, options: ServerOptions = {}): Promise<Server> {
  return new Promise((resolve, reject) => {
    // What express's app.listen does, for any request handler (the delivery front is not an express app).
    const server = createServer(options, app as never).listen(port, host, () => resolve(server));
    server.once('error', reject);
  });
}

const urlOf = (host: string, port: number): string => {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
};

export type ServiceOptions = CoreOptions & {
  /** The primary of several delivery processes (docs/decisions/0388): its role without the delivery listener, which the cluster's workers share. */
  readonly withoutDelivery?: boolean;
};

/** The composition root: stores, command bus, projections, both HTTP interfaces, first-start bootstrap. */
export async function startService(config: Config, logger: Logger = createLogger(config.logLevel), options: ServiceOptions = {}): Promise<Service> {
  const log = logErrors(logger);
  // Before anything opens: a key refused stops the start here (docs/decisions/0344).
  const signingKey = config.audit.signingKeyFile ? loadSigningKey(config.audit.signingKeyFile, config.dataDir) : null;
  const role = config.role;
  // Where projections and reactors run (ROLE all, worker): each under its lease; elsewhere watched through its checkpoint (docs/decisions/0386, 0388).
  const applies = role === 'all' || role === 'worker';
  // The caches of the interfaces, made from the stores the composition opens.
  const made: { caches?: ServiceCaches } = {};
  const core = await composeCore(config, logger, options, { applies, hooks: (opened) => (made.caches = serviceCaches(opened)).hooks });
  const { routing, served, deliveryAuth, environmentStatus, requestDocs } = made.caches!;
  const { stores, eventStore, searchIndex, metrics, bus, validator, resourceQuota, embedder, recentResources, target, build, fenceRead } = core;
  const { readStore } = stores;
  const readModelRunner = core.readModels;
  const deliveryIndex = core.deliveryIndex;
  const requests = new RequestMeter();
  let draining = false;
  let bootstrapped = false;
  let projections: Projections | null = null;
  const lagOf = { eventStore: stores.eventStore, maxLag: config.readyMaxLag, timeoutMs: 2000 };
  const front = {
    logger,
    metrics,
    readiness: () => readiness({ ...lagOf, projections: projections as Projections, draining: () => draining, bootstrapped: () => bootstrapped }),
  };
  // The webhook sender and the scheduler's timer run where their reactor's lease is held, once the catch-up is done.
  const sideLoops = { caughtUp: false, sender: null as WebhookSender | null, scheduler: null as Scheduler | null };
  const startSender = (): void => {
    if (!sideLoops.caughtUp || sideLoops.sender) return;
    sideLoops.sender = new WebhookSender(readStore, bus, config.webhooks, log);
    sideLoops.sender.start();
  };
  const startScheduler = (): void => {
    if (!sideLoops.caughtUp || sideLoops.scheduler) return;
    sideLoops.scheduler = new Scheduler(readStore, bus, validator, log);
    sideLoops.scheduler.arm();
  };
  const stopSender = async (): Promise<void> => {
    const sender = sideLoops.sender;
    sideLoops.sender = null;
    await sender?.stop();
  };
  const stopScheduler = async (): Promise<void> => {
    const scheduler = sideLoops.scheduler;
    sideLoops.scheduler = null;
    await scheduler?.stop();
  };
  // Cascades of deletes run as a reactor from their own checkpoint (docs/decisions/0083).
  const cascades = reactorTarget('cascades', readStore, cascadeReaction({ bus, readStore, quota: resourceQuota, readModels: readModelRunner.consumer }));
  // Webhooks and scheduled publishing: reactors with their own checkpoints and tables (docs/decisions/0355, 0357).
  const webhooks = webhookReactor(readStore, () => sideLoops.sender?.wake());
  const due = readModelTarget(readStore, [schedulesProjection(SCHEDULER.table)], SCHEDULER.name);
  const schedulerRunner = build({
    target: target(sparseCheckpoints(readStore, due, (batch) => batch.some((stored) => SCHEDULE_EVENTS.has(stored.type)))),
    fence: fenceRead,
    onHeld: startScheduler,
    onLost: stopScheduler,
  });
  schedulerRunner.runner?.applied.subscribe((batch) => {
    if (batch.some((stored) => SCHEDULE_EVENTS.has(stored.type))) sideLoops.scheduler?.arm();
  });
  const cascadesRunner = build({ target: target(cascades), fence: fenceRead, reactor: true });
  const webhooksRunner = build({ target: target(webhooks), fence: fenceRead, onHeld: startSender, onLost: stopSender });
  if (applies) for (const prepared of [webhooks, due]) await prepared.prepare();
  // Signed audit checkpoints with AUDIT_SIGNING_KEY_FILE: a reactor beside the cascades (docs/decisions/0344); its stream's expected revision fences it.
  const audit = checkpointSigner(config, signingKey, eventStore, logger, target, log);
  projections = await core.start(
    // Where no reactor runs, a wait=true delete waits for the cascades alone: the other reactors store their checkpoints only now and then (docs/decisions/0083, 0387).
    applies
      ? [cascadesRunner.consumer, webhooksRunner.consumer, schedulerRunner.consumer, ...(audit.target ? [build({ target: audit.target }).consumer] : [])]
      : [cascadesRunner.consumer],
  );
  if (role !== 'worker') {
    await routing.loadAll();
    await environmentStatus.loadAll();
  }

  const secret = jwtSecret(config.dataDir, config.jwtSecret);
  // The first start's tenancy and its bootstrap.json exist before either port listens, so whoever sees /healthz answer finds the file (docs/decisions/0347).
  // Made by a process with the management interface; a worker or a delivery process makes none.
  const prepared = role === 'all' || role === 'api' ? await prepareBootstrap(config, { bus, eventStore, projections }) : null;
  // After the first start's setup, which no plan refuses: every later write passes these checks.
  core.useWriteGuards();
  // With PORT or DELIVERY_PORT 0 (tests) a port is known only once it listens: the file is written right after.
  const portsKnown = config.port !== 0 && config.deliveryPort !== 0;
  const fileFor = (urls: { base: string; delivery: string }): BootstrapFile | null =>
    prepared === null ? null : 'file' in prepared ? prepared.file : writeBootstrap(config, prepared.made, secret, urls);
  let file = portsKnown ? fileFor({ base: urlOf(config.host, config.port), delivery: urlOf(config.host, config.deliveryPort) }) : null;
  const rateLimit = managementRateLimit(requestDocs.reads, config.rateLimit, requests);
  const managementDeps = {
    bus,
    eventStore,
    validator,
    projections,
    readStore,
    requestReads: requestDocs.reads,
    searchIndex,
    recentResources,
    waitTimeoutMs: config.waitTimeoutMs,
    resourceQuota,
    webhooks: { allowPrivateNetworks: config.webhooks.allowPrivateNetworks, wake: () => sideLoops.sender?.wake() },
    jwtSecret: secret,
    usedSignatures: stores.usedSignatures,
    log,
    auditKey: audit.key,
    tenancy: {
      billing: config.billing,
      requests,
      resourceLimit: config.resourceLimit,
      rateLimit,
      status: environmentStatus,
    },
  };
  // The web console's files beside the operations endpoints; its CSP names the delivery origin once it listens (docs/decisions/0358).
  let deliveryOrigin = '';
  const management = managementApp({ ...managementDeps, front: (router) => frontRouter(front, 'management', router), console: consoleFiles(() => deliveryOrigin) });
  const writeDeps = { bus, validator, projections, readStore, waitTimeoutMs: config.waitTimeoutMs, resourceQuota };
  const mcp = new LazyMcpEndpoint({ routing, readStore, auth: deliveryAuth });
  const delivery = deliveryServer({ routing, searchIndex, embedder, auth: deliveryAuth, writes: writeDeps, cache: served, mcp, log, status: environmentStatus, front });
  const listenManagement = (): Promise<Server> => listen(management as never, config.host, config.port, expressServerOptions(management));
  const listenDelivery = (): Promise<Server> =>
    listen(freshFirst([deliveryIndex.consumer, readModelRunner.consumer], log, tracedListener('delivery-read', delivery.listener)) as never, config.host, config.deliveryPort);
  // A worker's port: /healthz, /readyz and /metrics only.
  const listenOperations = (): Promise<Server> => listen(express().use(operationsRouter(front, 'management'), notOnWorker) as never, config.host, config.port);
  // The ports of this process's role (docs/decisions/0388).
  const managementServer = role === 'worker' ? await listenOperations() : role === 'delivery' ? null : await listenManagement();
  const deliveryListening = role === 'worker' || options.withoutDelivery ? null : await listenDelivery();
  const servers = [managementServer, deliveryListening].filter((server) => server !== null);
  // The word vectors opened (or prepared) and the search body's schema compiled now, not by the first search (docs/decisions/0349).
  if (embedder instanceof StaticWordEmbedder) embedder.warm().catch((error: unknown) => log('opening the word vectors failed', error));
  setImmediate(prepareBodyShape);
  const portOf = (server: Server): number => (server.address() as AddressInfo).port;
  const urlOfServer = (server: Server | null, port: number): string => (server ? urlOf(config.host, portOf(server)) : port === 0 ? '' : urlOf(config.host, port));
  const urls = { base: urlOfServer(managementServer, config.port), delivery: urlOfServer(deliveryListening, config.deliveryPort) };
  deliveryOrigin = urls.delivery;
  if (!portsKnown) file = fileFor(urls);
  // After the catch-up: a schedule due while the service was down fires now, deliveries left pending go out (where this process holds their leases).
  sideLoops.caughtUp = true;
  if (webhooksRunner.slot?.held) startSender();
  if (schedulerRunner.slot?.held) startScheduler();
  // The bootstrap step is over (with fixed ports it was before they listened): /readyz may answer 200 from now on.
  bootstrapped = true;

  let stopping: Promise<void> | null = null;
  return {
    urls,
    bootstrap: file,
    bootstrapCreated: prepared !== null && 'made' in prepared,
    projections,
    apps: { management, delivery },
    /** Graceful: readiness turns 503, in-flight requests finish, agent sessions end, projections commit their batch and checkpoint, stores close. */
    stop() {
      stopping ??= (async () => {
        draining = true;
        await Promise.all(servers.map((s) => closeGracefully(s, config.shutdownGraceMs)));
        mcp.close();
        await audit.close();
        await Promise.all([stopScheduler(), stopSender()]);
        await projections.stop();
        if (embedder instanceof StaticWordEmbedder) await embedder.close();
        await closeStores(stores);
      })();
      return stopping;
    },
  };
}

/**
 * Where another process applies the delivery index and the read models (ROLE api, delivery), each
 * delivery request first evicts the cached answers, routes and credentials their checkpoints moved
 * past, so none is older than this process's own read of the store (docs/decisions/0388); where
 * they run here, their batches evict them.
 */
function freshFirst<A extends unknown[]>(consumers: readonly Consumer[], log: (message: string, error?: unknown) => void, handler: (...args: A) => void): (...args: A) => void {
  const watched = consumers.filter((consumer) => consumer instanceof CheckpointWatcher);
  if (watched.length === 0) return handler;
  return (...args) =>
    void Promise.all(watched.map((watcher) => watcher.current()))
      .catch((error: unknown) => log('reading the delivery index checkpoint failed', error))
      .then(() => handler(...args));
}

/** Anything but the operations endpoints, on a worker's port. */
function notOnWorker(_req: unknown, res: { status(code: number): { json(body: unknown): void } }): void {
  res.status(404).json({ message: 'a worker process serves only /healthz, /readyz and /metrics', error_code: 'route_not_found', detail: null });
}

/** Drops the remembered delivery answers a batch changed (docs/decisions/0131), marked in the stage trace (0275). */
function evictTimed(served: ServedCache, batch: readonly StoredEvent[]): void {
  const started = stageNow();
  evictChanged(served, batch);
  markStage('evict', started, batch.length);
}

type ServiceCaches = ReturnType<typeof serviceCaches>;

/** What the interfaces keep in memory of the read side, with the hooks that evict it after the read models' and the delivery index's batches. */
function serviceCaches(stores: Stores) {
  const { readStore } = stores;
  const routing = new DeliveryRouting(readStore);
  // Delivery answers kept as served bytes, evicted by routing reloads and delivery batches (docs/decisions/0131).
  const served = new ServedCache();
  routing.onReload((env) => served.evict(env));
  const deliveryAuth = new DeliveryAuth(readStore, stores.usedSignatures);
  const environmentStatus = new EnvironmentStatus(readStore);
  // What every management request reads before its handler, kept until the next read-model batch (docs/decisions/0270).
  const requestDocs = new RequestDocs(readStore, new Set(['users', 'organizations', 'environments']));
  const hooks: BatchHooks = {
    readModels: async (batch) => {
      requestDocs.forget();
      if (batch.some((stored) => CREDENTIAL_EVENTS.has(stored.type))) deliveryAuth.forget();
      const envs = new Set<string>();
      for (const stored of batch) {
        if (!ROUTING_EVENTS.has(stored.type)) continue;
        const event = asDomainEvent(stored);
        envs.add(event.type === 'EnvironmentCreated' ? event.data.key : (event.data as { env: string }).env);
      }
      for (const env of envs) await routing.reload(env);
      environmentStatus.observe(batch);
    },
    deliveryIndex: async (batch) => evictTimed(served, batch),
  };
  return { routing, served, deliveryAuth, environmentStatus, requestDocs, hooks };
}
