/** Benchmark knobs from the environment (BENCH_*), each bounded. */
export type BenchOptions = {
  readonly resources: number;
  readonly seconds: number;
  readonly connections: number;
  readonly warmupSeconds: number;
  readonly seedConcurrency: number;
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
  };
}
