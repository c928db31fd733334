import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'chai';
import type { EventStore } from '../../commands/ports.js';
import { agent, expectRefusedTool, expectRefusedWrite, ORIGIN, seed, send, type Seeded } from '../support/delivery-seed.js';
import { startTestService, type TestService } from '../support/service.js';

const writesOf = async (s: TestService): Promise<number> => {
  const org = (await s.api('GET', '/organizations/')).body[0].key;
  return (await s.api('GET', `/organizations/${org}/usage/`)).body.current_usage.writes as number;
};

/**
 * A service seeded with the delivery fixture, then restarted on its data directory with the
 * billing settings `settings(writes so far)`, so that the allowance or cap is just reached.
 */
async function blocked(plan: string, settings: (writes: number) => Record<string, string>): Promise<{ s: TestService; e: Seeded; events: EventStore }> {
  const first = await startTestService({ PLAN: plan });
  const e = await seed(first, first.env);
  const writes = await writesOf(first);
  await first.stop();
  let events: EventStore | undefined;
  const s = await startTestService({ PLAN: plan, ...settings(writes) }, first.dataDir, { wrapEventStore: (store) => (events = store) });
  return { s, e: { ...e, base: `${s.service.urls.delivery}/${e.env}/site` }, events: events! };
}

/** Delivery writes (REST, Simple and Bearer, and the agent's write tools) at a billing block: 402 with the API's CORS headers, nothing written; reads still served. */
function refusesDeliveryWrites(code: string, detail: readonly string[], start: () => Promise<{ s: TestService; e: Seeded; events: EventStore }>): void {
  let s: TestService;
  let e: Seeded;
  let events: EventStore;
  let client: Client | undefined;
  before(async () => ({ s, e, events } = await start()));
  after(async () => {
    await client?.close().catch(() => undefined);
    await s?.stop();
  });

  it(`answers delivery creates and updates 402 ${code} with ${detail.join(', ')} and the API's CORS headers, writing nothing`, async () => {
    const list = `${e.base}/articles/`;
    for (const authorization of [e.simple, e.bearer]) {
      const created = await expectRefusedWrite(events, list, 'POST', authorization, { data: { title: 'No' } }, 402, code);
      expect(created.body.detail).to.have.all.keys(...detail);
      expect(created.body).to.include(created.body.detail);
      expect(created.headers.get('vary')).to.equal('Origin');
      await expectRefusedWrite(events, `${list}${e.article}/`, 'PUT', authorization, { data: { title: 'No' } }, 402, code);
    }
  });

  it(`refuses the agent's write tools with ${code}, and still serves reads with CORS headers`, async () => {
    client = await agent(e.base, e.simple);
    await expectRefusedTool(events, client, 'create_record', { collection_path: 'articles', data: { title: 'No' } }, code);
    await expectRefusedTool(events, client, 'update_record', { collection_path: 'articles', key: e.article, data: { title: 'No' } }, code);
    for (const authorization of [undefined, e.simple, e.bearer]) {
      const read = await send(`${e.base}/articles/${e.article}/`, 'GET', authorization);
      expect(read.status).to.equal(200);
      expect(read.body.data).to.deep.equal({ title: 'Hello' });
      expect(read.headers.get('access-control-allow-origin')).to.equal(ORIGIN);
    }
  });
}

describe('delivery writes at a billing block (402) carry the API CORS headers', function () {
  this.timeout(60_000);

  describe('a free organization whose writes allowance is used up', () => {
    refusesDeliveryWrites('plan_exhausted', ['axis', 'window_resets_at', 'upgrade_url'], () => blocked('free', (writes) => ({ FREE_WRITES_PER_MONTH: String(writes) })));
  });

  describe('a paid organization at its spend cap', () => {
    refusesDeliveryWrites('spend_cap_reached', ['cap_usd', 'cycle_resets_at', 'raise_cap_url'], () =>
      blocked('pro', (writes) => ({ WRITE_PRICE_USD: '1', SPEND_CAP_USD: String(writes) })),
    );
  });
});
