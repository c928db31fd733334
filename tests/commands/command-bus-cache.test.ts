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
});
