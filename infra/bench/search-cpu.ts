import { cpuSeconds } from './cpu-time.js';

/**
 * The service's CPU milliseconds per request of a one-at-a-time latency run (its 20 warm-up
 * requests included): a figure the machine's other load moves less than a latency.
 */
export async function withServiceCpu<T extends { requests: number }>(pid: number | undefined, work: () => Promise<T>): Promise<T & { cpuMs: number | null }> {
  const before = pid === undefined ? null : await cpuSeconds(pid);
  const result = await work();
  const after = pid === undefined ? null : await cpuSeconds(pid);
  const cpuMs = before && after ? ((after.main - before.main) * 1000) / (result.requests + 20) : null;
  return { ...result, cpuMs };
}
