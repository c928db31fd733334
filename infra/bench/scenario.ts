import type { Cleanup } from './cleanup.js';
import type { Measurement, Target } from './load.js';
import type { BenchOptions } from './options.js';
import type { ServiceChild } from './service.js';
import type { Figure, Row } from './table.js';

/** What every scenario gets: the running, seeded service and the baseline measured in the same run. */
export type BenchContext = {
  readonly root: string;
  readonly cleanup: Cleanup;
  readonly options: BenchOptions;
  readonly service: ServiceChild;
  readonly dataDir: string;
  /** The seeded collection and the keys of its seeded resources. */
  readonly collection: string;
  readonly keys: readonly string[];
  /** Path of the seeded collection on the delivery interface (`/{env}/{prefix}/{alias}/`). */
  readonly deliveryPath: string;
  /** The bare `http` server's get-one and list runs: what every ratio divides by. */
  readonly baseline: { readonly getOne: Measurement; readonly list: Measurement; readonly origin: string };
  /** Warm-up then a measured autocannon run (BENCH_SECONDS, BENCH_CONNECTIONS unless `connections` is given). */
  measure(target: Target, connections?: number): Promise<Measurement>;
  log(line: string): void;
  /** What the benchmark is doing, for the message when something fails under it. */
  phase(what: string): void;
};

export type ScenarioResult = { readonly rows?: readonly Row[]; readonly figures?: readonly Figure[] };

/** One named part of `npm run bench`; BENCH_SCENARIOS picks some by name. */
export type Scenario = { readonly name: string; run(ctx: BenchContext): Promise<ScenarioResult> };
