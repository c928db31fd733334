import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One interface of the service, a label on every HTTP metric. */
export type Interface = 'management' | 'delivery';

/**
 * The service's Prometheus metrics, in a registry of its own (one per started service, so
 * two services in one process, as in the tests, never mix their numbers).
 */
export type Metrics = {
  readonly registry: Registry;
  readonly httpRequests: Counter<'interface' | 'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'interface' | 'method' | 'route' | 'status'>;
  /** Every 403, by route template and error code: refusals are visible to auditors (docs/decisions/0336). */
  readonly refusals: Counter<'interface' | 'route' | 'error_code'>;
  readonly appendDuration: Histogram<'outcome'>;
  readonly cacheLookups: Counter<'cache' | 'result'>;
  /**
   * Counts one cache's lookups in plain numbers, added to `cacheLookups` when the registry is
   * read: for caches looked up several times a request (docs/decisions/0240).
   */
  readonly tallyLookups: (cache: string) => (hit: boolean) => void;
  readonly projectionLag: Gauge<'projection'>;
  readonly projectionStopped: Gauge<'projection'>;
};

/** Creates the metrics; `collectLag` runs on every scrape to fill the projection gauges. */
export function createMetrics(collectLag: () => Promise<readonly { name: string; lag: number; stopped: boolean }[]>): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labels = ['interface', 'method', 'route', 'status'] as const;
  const tallies: (() => void)[] = [];
  const metrics: Metrics = {
    registry,
    httpRequests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route template and status.',
      labelNames: labels,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from a request arriving to its response finishing, by route template and status.',
      labelNames: labels,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    refusals: new Counter({
      name: 'http_refusals_total',
      help: 'Requests refused with 403 (permission_denied, access_denied, plan_limit_exceeded...), by route template and error code.',
      labelNames: ['interface', 'route', 'error_code'],
      registers: [registry],
    }),
    appendDuration: new Histogram({
      name: 'eventstore_append_duration_seconds',
      help: 'Time of one append to the event store, by outcome (ok, conflict, error).',
      labelNames: ['outcome'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
      registers: [registry],
    }),
    cacheLookups: new Counter({
      name: 'cache_lookups_total',
      help: 'Lookups in an in-process cache, by cache and result (hit, miss).',
      labelNames: ['cache', 'result'],
      registers: [registry],
      collect() {
        for (const flush of tallies) flush();
      },
    }),
    tallyLookups(cache) {
      const counts = { hit: 0, miss: 0 };
      tallies.push(() => {
        for (const result of ['hit', 'miss'] as const) {
          if (counts[result] > 0) metrics.cacheLookups.inc({ cache, result }, counts[result]);
          counts[result] = 0;
        }
      });
      return (hit) => {
        if (hit) counts.hit++;
        else counts.miss++;
      };
    },
    projectionLag: new Gauge({
      name: 'projection_lag_events',
      help: 'Events in the event store that a projection has not applied yet (counted up to the readiness bound plus one).',
      labelNames: ['projection'],
      registers: [registry],
      async collect() {
        for (const p of await collectLag()) this.set({ projection: p.name }, p.lag);
      },
    }),
    projectionStopped: new Gauge({
      name: 'projection_stopped',
      help: '1 when a projection stopped on a faulty event, else 0.',
      labelNames: ['projection'],
      registers: [registry],
      async collect() {
        for (const p of await collectLag()) this.set({ projection: p.name }, p.stopped ? 1 : 0);
      },
    }),
  };
  return metrics;
}
