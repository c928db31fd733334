import { expect } from 'chai';
import { join } from 'node:path';
import type { Position } from '../../commands/ports.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { ProjectionRunner, type ProjectionTarget } from '../../projections/runner.js';
import { tempDir } from '../support/temp.js';

const metadata = { actor_type: 'system' as const, actor: null, ip_address: null, referer: null, timestamp: '' };

/** A target that notes, in `log`, each batch it applies; the first one also queues a `probe` for the next turn of the loop. */
function noting(name: string, log: string[], probe: boolean): ProjectionTarget {
  let checkpoint: Position = '';
  return {
    name,
    checkpoint: async () => checkpoint,
    async apply(events, position) {
      log.push(`${name}:${events.length}`);
      if (probe) setImmediate(() => log.push('next turn'));
      checkpoint = position;
    },
  };
}

/** docs/decisions/0276: runners with `turnLater` start their batch a turn after the others. */
describe('projection runner: a batch a turn later', () => {
  let store: SqliteEventStore;
  let runners: ProjectionRunner[] = [];
  beforeEach(() => {
    store = new SqliteEventStore(join(tempDir(), 'events.db'));
  });
  afterEach(async () => {
    await Promise.all(runners.map((r) => r.stop()));
    runners = [];
    store.close();
  });

  async function appendAndApply(turnLater: boolean): Promise<string[]> {
    const log: string[] = [];
    runners = [new ProjectionRunner(store, noting('first', log, true)), new ProjectionRunner(store, noting('second', log, false), { turnLater })];
    await Promise.all(runners.map((r) => r.start()));
    const events = ['a', 'b', 'c'].map((id) => ({ id, type: 'Counted', data: {}, metadata }));
    await store.appendToStream('s', events, 'no_stream');
    const head = await store.headPosition();
    for (const runner of runners) expect(await runner.waitFor(head, 5000)).to.equal(true);
    await new Promise((resolve) => setImmediate(resolve));
    return log;
  }

  it('without it, every runner applies the group in the same turn of the loop', async () => {
    const log = await appendAndApply(false);
    expect(log.slice(0, 3)).to.deep.equal(['first:3', 'second:3', 'next turn']);
  });

  it('with it, the runner applies the group after a turn of the loop in which other work runs', async () => {
    const log = await appendAndApply(true);
    expect(log.slice(0, 3)).to.deep.equal(['first:3', 'next turn', 'second:3']);
  });

  it('still applies every later group once, in order', async () => {
    const log: string[] = [];
    runners = [new ProjectionRunner(store, noting('later', log, false), { turnLater: true })];
    await runners[0]!.start();
    for (let i = 0; i < 5; i++) {
      const events = [{ id: `e${i}`, type: 'Counted', data: {}, metadata }];
      await store.appendToStream('s', events, i === 0 ? 'no_stream' : i - 1);
    }
    expect(await runners[0]!.waitFor(await store.headPosition(), 5000)).to.equal(true);
    expect(log.reduce((sum, entry) => sum + Number(entry.split(':')[1]), 0)).to.equal(5);
    expect(runners[0]!.checkpoint).to.equal(await store.headPosition());
  });
});
