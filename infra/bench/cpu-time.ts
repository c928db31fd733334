import { readFile } from 'node:fs/promises';
import { call } from './http.js';
import type { BenchContext } from './scenario.js';

/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_S = 100;

/** CPU seconds (user + system) of a process and of its main thread, from Linux's /proc; null elsewhere. */
export async function cpuSeconds(pid: number): Promise<{ process: number; main: number } | null> {
  const of = async (path: string): Promise<number> => {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = await readFile(path, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
  };
  try {
    return { process: await of(`/proc/${pid}/stat`), main: await of(`/proc/${pid}/task/${pid}/stat`) };
  } catch {
    return null;
  }
}

/** How many resources the seeded collection holds, from the management list's `count`. */
export async function resourceCount(ctx: BenchContext): Promise<number> {
  const b = ctx.service.bootstrap;
  const page = await call(`${b.base_url}/v1/${b.environment}/collections/${ctx.collection}/resources/?limit=1`, { token: b.management_token });
  const count = (page.body as { count?: unknown } | null)?.count;
  if (page.status !== 200 || typeof count !== 'number') throw new Error(`resource count answered ${page.status}: ${page.text.slice(0, 300)}`);
  return count;
}

/**
 * The service's CPU time per resource created while `work` runs (warm-up included, since the
 * creates are counted from the collection): a figure the machine's other load moves less than
 * a rate, as long as the service is the one doing the work.
 */
export async function cpuPerCreate<T>(ctx: BenchContext, work: () => Promise<T>): Promise<{ result: T; perCreate: { process: number; main: number; creates: number } | null }> {
  const pid = ctx.service.child.pid;
  const before = pid === undefined ? null : await cpuSeconds(pid);
  const countBefore = await resourceCount(ctx);
  const result = await work();
  const after = pid === undefined ? null : await cpuSeconds(pid);
  const creates = (await resourceCount(ctx)) - countBefore;
  if (!before || !after || creates <= 0) return { result, perCreate: null };
  return { result, perCreate: { process: ((after.process - before.process) * 1000) / creates, main: ((after.main - before.main) * 1000) / creates, creates } };
}
