import { loadavg } from 'node:os';
import type { Cleanup } from './cleanup.js';
import type { Measurement, Target } from './load.js';
import type { BenchOptions } from './options.js';
import type { ServiceChild } from './service.js';
import { figureTable, type Figure, type Row } from './table.js';

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

/** The name BENCH_SCENARIOS takes to run none of the scenarios (the reads and the rebuild still run). */
export const NO_SCENARIO = 'none';

/**
 * The names in BENCH_SCENARIOS that no scenario has: a misspelt name would otherwise run nothing
 * and say nothing, and the run would look like a measurement of it.
 */
export function unknownScenarios(names: readonly string[] | null, scenarios: readonly Scenario[]): string[] {
  if (!names) return [];
  const known = new Set([NO_SCENARIO, ...scenarios.map((s) => s.name)]);
  return names.filter((name) => !known.has(name));
}

/** Runs the scenarios BENCH_SCENARIOS names (all when unset), in order; their rows and figures together. */
export async function runScenarios(scenarios: readonly Scenario[], ctx: BenchContext): Promise<{ rows: Row[]; figures: Figure[] }> {
  const rows: Row[] = [];
  const figures: Figure[] = [];
  for (const scenario of scenarios) {
    if (ctx.options.scenarios && !ctx.options.scenarios.includes(scenario.name)) continue;
    ctx.phase(`scenario ${scenario.name}`);
    const result = await scenario.run(ctx);
    rows.push(...(result.rows ?? []));
    figures.push(...(result.figures ?? []));
  }
  return { rows, figures };
}

/** The figures table and a blank line, when there are figures. */
export function printFigures(log: (line: string) => void, figures: readonly Figure[]): void {
  if (figures.length === 0) return;
  log(figureTable(figures));
  log('');
}

/** The one-minute load average with two decimals. */
export const loadAverage = (): string => (loadavg()[0] ?? 0).toFixed(2);
