import { resolve } from 'node:path';

/** Benchmark knobs from the environment (BENCH_*), each bounded. */
export type BenchOptions = {
  readonly resources: number;
  readonly seconds: number;
  readonly connections: number;
  readonly warmupSeconds: number;
  readonly seedConcurrency: number;
  /** Concurrent writers of the write scenarios. */
  readonly writers: number;
  /** Write → delivery visibility samples per phase (idle, under write load). */
  readonly visibilitySamples: number;
  /** Scenario names to run (BENCH_SCENARIOS, comma-separated); null runs all. */
  readonly scenarios: readonly string[] | null;
  /** Where the service writes a V8 CPU profile when it stops (BENCH_CPU_PROF), or null. */
  readonly cpuProfileDir: string | null;
  /** Where `visibility` writes each sample's time line (BENCH_VISIBILITY_TRACE, docs/decisions/0275), or null. */
  readonly visibilityTrace: string | null;
};

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`${name} must be an integer from 1 to ${max}, got ${raw}`);
  return n;
}

export function benchOptions(env: NodeJS.ProcessEnv = process.env): BenchOptions {
  return {
    resources: positiveInt(env, 'BENCH_RESOURCES', 10_000, 1_000_000),
    seconds: positiveInt(env, 'BENCH_SECONDS', 10, 600),
    connections: positiveInt(env, 'BENCH_CONNECTIONS', 10, 1_000),
    warmupSeconds: 2,
    seedConcurrency: 32,
    writers: positiveInt(env, 'BENCH_WRITERS', 32, 1_000),
    visibilitySamples: positiveInt(env, 'BENCH_VISIBILITY_SAMPLES', 200, 100_000),
    scenarios: env.BENCH_SCENARIOS ? env.BENCH_SCENARIOS.split(',').map((name) => name.trim()).filter(Boolean) : null,
    cpuProfileDir: env.BENCH_CPU_PROF ? resolve(env.BENCH_CPU_PROF) : null,
    visibilityTrace: env.BENCH_VISIBILITY_TRACE ? resolve(env.BENCH_VISIBILITY_TRACE) : null,
  };
}
