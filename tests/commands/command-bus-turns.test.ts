import { expect } from 'chai';
import { CommandBus } from '../../commands/command-bus.js';
import type { Decider } from '../../domain/decider.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { tempDir } from '../support/temp.js';

type Inc = { readonly type: 'Inc'; readonly data: { readonly seen?: number } };
/** A counter whose events record the count each decision saw: two decisions on one state would repeat a number. */
const counter: Decider<number, Inc, Inc> = {
  initialState: () => 0,
  evolve: (state) => state + 1,
  decide: (_command, state) => [{ type: 'Inc', data: { seen: state } }],
};
const metadata = { actor_type: 'system', actor: null, ip_address: null, referer: null, timestamp: '2026-01-01T00:00:00Z' } as const;

describe('command bus: commands on one stream take turns', () => {
  let store: SqliteEventStore;
  let bus: CommandBus;

  beforeEach(() => {
    store = new SqliteEventStore(`${tempDir()}/events.db`);
    bus = new CommandBus(store);
  });
  afterEach(async () => store.close());

  it('handles 50 concurrent commands on one stream without a revision conflict, each deciding on the state the previous left', async () => {
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => bus.handle(counter, 'hot', { type: 'Inc', data: {} }, metadata)));
    expect(results.filter((r) => r.status === 'rejected')).to.deep.equal([]);
    const events = await store.readStream('hot');
    expect(events.map((e) => (e.data as { seen: number }).seen)).to.deep.equal(Array.from({ length: 50 }, (_, i) => i));
  });

  it('still commits commands on different streams together in one group', async () => {
    await Promise.all(Array.from({ length: 20 }, (_, i) => bus.handle(counter, `s-${i}`, { type: 'Inc', data: {} }, metadata)));
    expect(store.stats).to.deep.equal({ commits: 1, appends: 20, syncs: 1 });
  });

  it('lets the next command on a stream run after one that failed', async () => {
    const failing = bus.handle(counter, 'once', async () => {
      throw new Error('facts could not be looked up');
    }, metadata);
    const next = bus.handle(counter, 'once', { type: 'Inc', data: {} }, metadata);
    expect(await failing.catch((e: unknown) => (e as Error).message)).to.equal('facts could not be looked up');
    expect((await next).revision).to.equal(0);
  });
});
