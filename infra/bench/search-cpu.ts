import { cpuSeconds } from './cpu-time.js';

/**
 * The service's main-thread CPU milliseconds per request of a one-at-a-time latency run, from
 * the end of its warm-up (`work` calls `warm` then): a figure the machine's other load moves
 * less than a latency.
 */
export async function withServiceCpu<T extends { requests: number }>(
  pid: number | undefined,
  work: (warm: () => Promise<void>) => Promise<T>,
): Promise<T & { cpuMs: number | null }> {
  let before: { main: number } | null = null;
  const result = await work(async () => {
    before = pid === undefined ? null : await cpuSeconds(pid);
  });
  const after = pid === undefined ? null : await cpuSeconds(pid);
  const start = before as { main: number } | null;
  const cpuMs = start && after && result.requests > 0 ? ((after.main - start.main) * 1000) / result.requests : null;
  return { ...result, cpuMs };
}
