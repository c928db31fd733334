import { expect } from 'chai';
import { CommandBus } from '../../commands/command-bus.js';
import type { Decider } from '../../domain/decider.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { tempDir } from '../support/temp.js';

type Inc = { readonly type: 'Inc'; readonly data: Record<string, never> };
const counter: Decider<number, Inc, Inc> = { initialState: () => 0, evolve: (state) => state + 1, decide: () => [{ type: 'Inc', data: {} }] };

describe('command bus: the aggregate state cache', () => {
  it('keeps the 10,000 most recently used states and drops the least recently used ones first', async () => {
    const store = new SqliteEventStore(`${tempDir()}/events.db`);
    const lookups: boolean[] = [];
    const bus = new CommandBus(store, (hit) => lookups.push(hit));
    const hit = async (stream: string): Promise<boolean> => {
      await bus.load(counter, stream);
      return lookups[lookups.length - 1] === true;
    };
    for (let i = 0; i < 10_000; i++) await bus.load(counter, `s-${i}`);
    expect(await hit('s-1')).to.equal(true); // used again: now the most recent
    await bus.load(counter, 's-10000'); // one more than the cache holds
    expect(await hit('s-10000')).to.equal(true);
    expect(await hit('s-1')).to.equal(true);
    expect(await hit('s-5000')).to.equal(true);
    expect(await hit('s-0')).to.equal(false);
    expect(await hit('s-2')).to.equal(false);
    await store.close();
  });

  it('keeps a stream used between every new one through several evictions, and drops a tenth at a time', async () => {
    const store = new SqliteEventStore(`${tempDir()}/events.db`);
    const lookups: boolean[] = [];
    const bus = new CommandBus(store, (hit) => lookups.push(hit));
    await bus.load(counter, 'hot');
    for (let i = 0; i < 12_500; i++) {
      await bus.load(counter, `n-${i}`);
      await bus.load(counter, 'hot');
      expect(lookups[lookups.length - 1], `hot after n-${i}`).to.equal(true);
    }
    const hit = async (stream: string): Promise<boolean> => {
      await bus.load(counter, stream);
      return lookups[lookups.length - 1] === true;
    };
    // 12,501 streams seen: three evictions of the 1,001 least recently used (n-0 to n-3002) left 9,498, hot among them.
    expect(await hit('n-12499')).to.equal(true);
    expect(await hit('n-3003')).to.equal(true);
    expect(await hit('n-3002')).to.equal(false);
    expect(await hit('n-0')).to.equal(false);
    await store.close();
  });
});
