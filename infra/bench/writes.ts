import { cpuPerCreate } from './cpu-time.js';
import type { Target } from './load.js';
import type { BenchContext, Scenario } from './scenario.js';
import { resourceData } from './seed.js';

/** A resource create through the management API, each request with new data. */
export function createTarget(ctx: BenchContext, name: string, wait: boolean): Target {
  const b = ctx.service.bootstrap;
  let i = ctx.keys.length;
  return {
    name,
    origin: new URL(b.base_url).origin,
    path: () => `/v1/${b.environment}/collections/${ctx.collection}/resources/?wait=${wait}`,
    method: 'POST',
    headers: () => ({ authorization: `Bearer ${b.management_token}`, 'content-type': 'application/json' }),
    body: () => JSON.stringify({ data: resourceData(i++) }),
  };
}

/**
 * Resource creates with `wait=true` (each answered once every projection has it) from
 * BENCH_WRITERS concurrent writers; a 202 means the read side missed the wait timeout.
 */
export const writes: Scenario = {
  name: 'writes',
  async run(ctx) {
    const n = ctx.options.writers;
    const { result: m, perCreate } = await cpuPerCreate(ctx, () => ctx.measure(createTarget(ctx, `create wait=true (${n} writers)`, true), n));
    const late = m.statusCodes['202'] ?? 0;
    const created = m.statusCodes['201'] ?? 0;
    const rate = m.rps * (created / Math.max(m.requests, 1));
    return {
      rows: [{ m, baseline: ctx.baseline.getOne }],
      figures: [
        {
          name: `creates/s, wait=true, ${n} writers`,
          value: `${rate.toFixed(0)}/s`,
          target: '>= 3000/s',
          met: rate >= 3000,
          note: late > 0 ? `${late} answered 202 (read side later than the wait timeout)` : 'every create answered 201',
        },
        {
          name: 'service CPU per create, wait=true',
          value: perCreate ? `${perCreate.main.toFixed(3)} ms main thread, ${perCreate.process.toFixed(3)} ms process` : 'n/a',
          note: perCreate ? `${perCreate.creates} creates, warm-up included; less moved by other load than the rate` : 'needs Linux /proc',
        },
      ],
    };
  },
};
