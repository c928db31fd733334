import { alive, stopChild } from './cleanup.js';
import { call, sleep } from './http.js';
import type { Scenario } from './scenario.js';
import { freePorts, spawnService } from './service.js';
import type { Row } from './table.js';

const START_TIMEOUT_MS = 120_000;
/** After the first answer, time for the other delivery processes of the cluster to listen too. */
const SETTLE_MS = 3000;

/**
 * Delivery get-one served by 1 and by 2 delivery processes (`--delivery-processes N`,
 * docs/decisions/0388), as ratios to the bare `http` baseline of the same run: a second service
 * of ROLE api on the seeded data, beside the running one (which applies the projections), whose
 * delivery processes share its delivery port. On a 2-core machine that also runs the load
 * generator, a gain is not guaranteed.
 */
export const deliveryProcesses: Scenario = {
  name: 'delivery-processes',
  async run(ctx) {
    const rows: Row[] = [];
    for (const count of [1, 2]) {
      ctx.phase(`delivery get-one with ${count} delivery processes`);
      const ports = await freePorts();
      const { child, output } = spawnService(ctx.cleanup, ctx.root, ctx.dataDir, ports, { env: { ROLE: 'api', DELIVERY_PROCESSES: String(count) } });
      try {
        const origin = `http://127.0.0.1:${ports.deliveryPort}`;
        await firstAnswer(`${origin}${ctx.deliveryPath}${ctx.keys[0]}/`, () => alive(child), () => output.tail.join('\n'));
        await sleep(SETTLE_MS);
        const key = () => ctx.keys[Math.floor(Math.random() * ctx.keys.length)] as string;
        const name = `get-one, ${count} delivery process${count === 1 ? '' : 'es'} (cluster)`;
        rows.push({ m: await ctx.measure({ name, origin, path: () => `${ctx.deliveryPath}${key()}/` }), baseline: ctx.baseline.getOne });
      } finally {
        await stopChild(child);
      }
    }
    return { rows };
  },
};

async function firstAnswer(url: string, running: () => boolean, tail: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (!running()) throw new Error(`the delivery processes' service exited:\n${tail()}`);
    const answer = await call(url, { timeoutMs: 5_000 }).catch(() => null);
    if (answer?.status === 200) return;
    if (answer) throw new Error(`the delivery processes answered ${answer.status} for ${url}: ${answer.text.slice(0, 300)}`);
    await sleep(50);
  }
  throw new Error(`the delivery processes did not answer within ${START_TIMEOUT_MS / 1000} s`);
}
