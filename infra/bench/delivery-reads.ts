import type { Target } from './load.js';
import type { Scenario } from './scenario.js';

export const LIST_LIMIT = 20;

const randomKey = (keys: readonly string[]): string => keys[Math.floor(Math.random() * keys.length)] as string;

/** Anonymous delivery get-one of a random seeded resource and the first list page, each beside its bare-http run. */
export const deliveryReads: Scenario = {
  name: 'delivery',
  async run(ctx) {
    const origin = new URL(ctx.service.bootstrap.delivery_url).origin;
    const getOne: Target = { name: 'get-one', origin, path: () => `${ctx.deliveryPath}${randomKey(ctx.keys)}/` };
    const list: Target = { name: `list limit=${LIST_LIMIT}`, origin, path: () => `${ctx.deliveryPath}?limit=${LIST_LIMIT}` };
    const one = await ctx.measure(getOne);
    const page = await ctx.measure(list);
    return {
      rows: [
        { m: one, baseline: ctx.baseline.getOne },
        { m: ctx.baseline.getOne },
        { m: page, baseline: ctx.baseline.list },
        { m: ctx.baseline.list },
      ],
    };
  },
};
