import { CommandBus } from '../commands/command-bus.js';
import type { EventStore, StoredEvent } from '../commands/ports.js';
import { DataValidator } from '../commands/data-validator.js';
import type { ResourceQuota } from '../commands/resource-quota.js';
import { billingGuard, environmentWriteGuard } from '../commands/write-guards.js';
import { readModelTarget } from '../projections/read-model-target.js';
import { READ_MODELS, REVISION_MODELS } from '../projections/catalog.js';
import { deliveryTarget } from '../projections/delivery-index.js';
import { Projections, type Consumer, type ProjectionTarget } from '../projections/runner.js';
import { RecentDocs } from '../projections/recent-docs.js';
import type { SearchIndex } from '../projections/ports.js';
import { keyWritesOf, usageOf, usageTarget } from '../projections/usage.js';
import { UsageMeter } from './billing/usage-meter.js';
import type { Config } from './config.js';
import { createEmbedder } from './embeddings/create.js';
import { logErrors, type Logger } from './logger.js';
import { createMetrics, type Metrics } from './observability/metrics.js';
import { projectionReports } from './observability/readiness.js';
import { timedEventStore } from './observability/timed-event-store.js';
import { tracedTarget } from './observability/stage-trace.js';
import { openStores, type Stores } from './stores.js';
import { consumerBuilder, type Built, type ConsumerSpec } from './consumers.js';

/** What the composition may be wrapped with (test seams; `npm start` sets none). */
export type CoreOptions = {
  /** Wraps the opened event store before anything uses it (command bus, projections, bootstrap), e.g. to let another writer win an append. */
  readonly wrapEventStore?: (store: EventStore) => EventStore;
  /** Wraps each projection's target, e.g. to make it throw on one event. */
  readonly wrapProjectionTarget?: (target: ProjectionTarget) => ProjectionTarget;
  /** The delivery index to use instead of the opened one (e.g. the OpenSearch adapter on a model of its server). */
  readonly wrapSearchIndex?: (index: SearchIndex) => SearchIndex;
};

/**
 * What a process of the service writes and projects with: the stores, the command bus and its
 * guards, the projections. `infra/service.ts` (every ROLE) and `npm run import:content` compose
 * it here, the one place (docs/decisions/0389).
 */
export type Core = {
  readonly stores: Stores;
  readonly eventStore: EventStore;
  readonly searchIndex: SearchIndex;
  readonly metrics: Metrics;
  readonly bus: CommandBus;
  readonly validator: DataValidator;
  readonly resourceQuota: ResourceQuota;
  readonly embedder: ReturnType<typeof createEmbedder>;
  /** The resources the read models' last batches wrote (docs/decisions/0296). */
  readonly recentResources: RecentDocs;
  readonly log: (message: string, error?: unknown) => void;
  /** Each projection's target as this process runs it (the stage trace, or a test's wrapper). */
  readonly target: (target: ProjectionTarget) => ProjectionTarget;
  /** Builds a consumer for this process: leased where it applies projections, a checkpoint watcher elsewhere. */
  readonly build: (spec: ConsumerSpec) => Built;
  /** The delivery index's and the read models' consumers, which readers wait for. */
  readonly deliveryIndex: Built;
  readonly readModels: Built;
  /** Starts the projections (with the process's reactors beside them) and, where it applies them, catches them up with the log. */
  start(reactors: readonly Consumer[]): Promise<Projections>;
  /** The write guards every write after the first start's setup passes (environment state and protection, billing). */
  useWriteGuards(): void;
  /** Raises a read-model checkpoint's epoch (docs/decisions/0386). */
  readonly fenceRead: (consumer: string, epoch: number) => Promise<void>;
};

/** The in-process caches a process keeps beside the read side, evicted after the batches of the read models and of the delivery index. */
export type BatchHooks = {
  readonly readModels?: (batch: readonly StoredEvent[]) => Promise<void>;
  readonly deliveryIndex?: (batch: readonly StoredEvent[]) => Promise<void>;
};

/**
 * Opens the stores and composes the command bus and the projections of a process. `applies`:
 * whether this process applies projections under their leases (ROLE all, worker, and the content
 * import) or only follows their checkpoints (api, delivery). `hooks`: its caches, made from the
 * opened stores (none: a watcher reads no event for them).
 */
export async function composeCore(config: Config, logger: Logger, options: CoreOptions, kind: { readonly applies: boolean; readonly hooks?: (stores: Stores) => BatchHooks }): Promise<Core> {
  const { applies } = kind;
  const log = logErrors(logger);
  const stores = await openStores(config);
  const { readStore } = stores;
  const searchIndex = options.wrapSearchIndex ? options.wrapSearchIndex(stores.searchIndex) : stores.searchIndex;
  let projections: Projections | null = null;
  const lagOf = { eventStore: stores.eventStore, maxLag: config.readyMaxLag, timeoutMs: 2000 };
  const metrics = createMetrics(async () => (projections ? projectionReports({ ...lagOf, projections }) : []));
  const eventStore = timedEventStore(options.wrapEventStore ? options.wrapEventStore(stores.eventStore) : stores.eventStore, metrics);
  const bus = new CommandBus(eventStore, metrics.tallyLookups('aggregate_state'));
  const embedder = createEmbedder(config.embeddings, (target) =>
    logger.info({ target }, "preparing the embedded model's word vectors once (npm install does it for the default EMBEDDINGS_CACHE_DIR)"),
  );
  const resourceQuota: ResourceQuota =
    config.resourceLimit === null
      ? null
      : {
          limit: config.resourceLimit,
          existing: async (env) => (await readStore.collection('resources').find({ env })).map((doc) => ({ folder: String(doc.folder), key: doc._id })),
        };
  const validator = new DataValidator();
  const build = consumerBuilder({ eventStore, leases: applies ? stores.leases : null, log });
  const fenceRead = async (consumer: string, epoch: number): Promise<void> => readStore.fence?.(consumer, epoch);
  const target = options.wrapProjectionTarget ?? tracedTarget;
  const hooks = kind.hooks?.(stores) ?? {};

  // The projection lists live in projections/catalog.ts: `npm run rebuild` replays the same ones.
  // The resources each read-model batch wrote: a `wait=true` resource write is answered from them (docs/decisions/0296).
  const recentResources = new RecentDocs('resources');
  const readModelTarget_ = readModelTarget(readStore, READ_MODELS, 'read-models', [recentResources]);
  // Revision payloads are written by their own consumer: resource lists do not wait for them.
  const revisions = readModelTarget(readStore, REVISION_MODELS, 'revisions');
  const usage = usageTarget(readStore);
  // The billing guard's usage reads, kept until the next usage batch (docs/decisions/0270).
  const usageMeter = new UsageMeter((org, window) => usageOf(readStore, org, window));
  // The read models, revisions and usage start their batches a turn of the event loop after the delivery index, which readers wait for (docs/decisions/0276).
  const readModels = build({
    target: target(readModelTarget_),
    fence: fenceRead,
    turnLater: true,
    afterBatch: hooks.readModels,
    onLost: async () => recentResources.forget(),
  });
  const deliveryIndex = build({
    target: target(deliveryTarget(searchIndex, embedder)),
    fence: async (consumer, epoch) => searchIndex.fence?.(consumer, epoch),
    afterBatch: hooks.deliveryIndex,
  });
  if (applies) for (const prepared of [readModelTarget_, revisions, usage]) await prepared.prepare();

  return {
    stores,
    eventStore,
    searchIndex,
    metrics,
    bus,
    validator,
    resourceQuota,
    embedder,
    recentResources,
    log,
    target,
    build,
    deliveryIndex,
    readModels,
    fenceRead,
    async start(reactors) {
      projections = new Projections(
        [
          // Readers wait for the delivery index (docs/decisions/0217); the turn it takes a group in is above.
          deliveryIndex.consumer,
          readModels.consumer,
          build({ target: target(revisions), fence: fenceRead, turnLater: true }).consumer,
          build({ target: target(usage), fence: fenceRead, turnLater: true, afterBatch: async () => usageMeter.forget(), afterBatchWithoutEvents: true }).consumer,
        ],
        reactors,
      );
      await projections.start();
      // Catch-up: a projection that stops on a faulty event stops this wait too (docs/decisions/0080). An api or delivery process waits for none: /readyz shows the lag.
      if (applies) await projections.waitFor(await eventStore.headPosition(), 10 * 60_000);
      return projections;
    },
    useWriteGuards() {
      bus.useGuard(environmentWriteGuard(bus));
      bus.useGuard(billingGuard(bus, usageMeter.of, config.billing, (key, window) => keyWritesOf(readStore, key, window)));
    },
  };
}
