import { expect } from 'chai';
import { CommandBus } from '../../commands/command-bus.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { counter, metadata } from '../support/counter-decider.js';
import { tempDir } from '../support/temp.js';


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
