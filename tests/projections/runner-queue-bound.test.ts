import { expect } from 'chai';
import { join } from 'node:path';
import type { Position } from '../../commands/ports.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { MAX_QUEUED, ProjectionRunner, type ProjectionTarget } from '../../projections/runner.js';
import { tempDir } from '../support/temp.js';

const metadata = { actor_type: 'system' as const, actor: null, ip_address: null, referer: null, timestamp: '' };
const TOTAL = MAX_QUEUED * 2 + 1234;

async function until(condition: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A lagging projection holds at most MAX_QUEUED events in memory, and still applies every event once, in order. */
describe('projection runner: a bounded queue', () => {
  let store: SqliteEventStore;
  before(async () => {
    store = new SqliteEventStore(join(tempDir(), 'events.db'));
    const ids = Array.from({ length: TOTAL }, (_, i) => `e${String(i).padStart(6, '0')}`);
    for (let i = 0; i < ids.length; i += 1000) {
      const events = ids.slice(i, i + 1000).map((id) => ({ id, type: 'Counted', data: {}, metadata }));
      await store.appendToStream('s', events, i === 0 ? 'no_stream' : i - 1);
    }
  });
  after(() => store.close());

  it('stops reading $all at MAX_QUEUED events while it lags, then reads on from its checkpoint', async () => {
    const applied: string[] = [];
    let checkpoint: Position = '';
    let largestLag = 0;
    const target: ProjectionTarget = {
      name: 'counter',
      checkpoint: async () => checkpoint,
      async apply(events, position) {
        applied.push(...events.map((e) => e.id));
        checkpoint = position;
      },
    };
    const runner = new ProjectionRunner(store, target);
    runner.pause();
    await runner.start();
    // Held before its first batch: the queue fills up to the bound and no further.
    await until(() => runner.status().lag >= MAX_QUEUED);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(runner.status().lag).to.equal(MAX_QUEUED);
    expect(applied).to.have.length(0);

    const sampler = setInterval(() => (largestLag = Math.max(largestLag, runner.status().lag)), 1);
    runner.resume();
    expect(await runner.waitFor(await store.headPosition(), 20_000)).to.equal(true);
    clearInterval(sampler);
    expect(largestLag).to.be.at.most(MAX_QUEUED);
    expect(applied).to.have.length(TOTAL);
    expect(new Set(applied).size, 'each event once').to.equal(TOTAL);
    expect(applied, 'in order').to.deep.equal([...applied].sort());
    expect(runner.status()).to.deep.include({ lag: 0, stopped: false });

    // It follows $all again: a later event is applied too.
    await store.appendToStream('s', [{ id: 'later', type: 'Counted', data: {}, metadata }], TOTAL - 1);
    expect(await runner.waitFor(await store.headPosition(), 10_000)).to.equal(true);
    expect(applied[applied.length - 1]).to.equal('later');
    await runner.stop();
  });
});
