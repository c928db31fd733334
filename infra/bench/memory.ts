import { readFile } from 'node:fs/promises';
import { expect } from './http.js';
import type { Scenario } from './scenario.js';

const TARGET_MB = 400;

/** VmRSS and VmHWM (peak) of a process in MB, from Linux's /proc; null elsewhere. */
async function rss(pid: number): Promise<{ now: number; peak: number } | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/**
 * The service's resident memory with every resource the run created so far (BENCH_RESOURCES
 * seeded, plus the write scenarios'): run it after them. The goal is for 100,000 resources.
 */
export const memory: Scenario = {
  name: 'memory',
  async run(ctx) {
    const b = ctx.service.bootstrap;
    const pid = ctx.service.child.pid;
    const page = await expect<{ count: number }>(200, 'resource count', `${b.base_url}/v1/${b.environment}/collections/${ctx.collection}/resources/?limit=1`, {
      token: b.management_token,
    });
    const size = pid === undefined ? null : await rss(pid);
    if (!size) return { figures: [{ name: 'service RSS', value: 'n/a', note: 'needs Linux /proc' }] };
    const scaled = page.count >= 100_000;
    return {
      figures: [
        {
          name: `service RSS with ${page.count} resources`,
          value: `${size.now.toFixed(0)} MB (peak ${size.peak.toFixed(0)} MB)`,
          target: `< ${TARGET_MB} MB at 100000`,
          met: scaled ? size.peak < TARGET_MB : undefined,
          note: scaled ? '' : 'fewer than 100000 resources: set BENCH_RESOURCES=100000 to hold it against the goal',
        },
      ],
    };
  },
};
