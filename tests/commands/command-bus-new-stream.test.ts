import { expect } from 'chai';
import { CommandBus } from '../../commands/command-bus.js';
import type { EventStore } from '../../commands/ports.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { counter, metadata } from '../support/counter-decider.js';
import { tempDir } from '../support/temp.js';


describe('command bus: a command on a stream named by a new key (docs/decisions/0296)', () => {
  let store: SqliteEventStore;
  let reads: string[];
  let bus: CommandBus;

  beforeEach(() => {
    store = new SqliteEventStore(`${tempDir()}/events.db`);
    reads = [];
    const counted: EventStore = Object.assign(Object.create(store) as EventStore, {
      readStream: (stream: string, from?: number) => (reads.push(stream), store.readStream(stream, from)),
    });
    bus = new CommandBus(counted);
  });
  afterEach(async () => store.close());

  it('decides on the initial state without reading the stream, and appends expecting no stream', async () => {
    const handled = await bus.handleNew(counter, 'fresh', { type: 'Inc', data: {} }, metadata);
    expect(reads).to.deep.equal([]);
    expect(handled.revision).to.equal(0);
    expect((await store.readStream('fresh')).map((e) => e.data)).to.deep.equal([{ seen: 0 }]);
  });

  it('reads the stream and decides again when the key was taken after all', async () => {
    await store.appendToStream('taken', [{ id: 'e1', type: 'Inc', data: { seen: 0 }, metadata }], 'no_stream');
    const handled = await bus.handleNew(counter, 'taken', { type: 'Inc', data: {} }, metadata);
    expect(reads).to.deep.equal(['taken']);
    expect((await store.readStream('taken')).map((e) => e.data)).to.deep.equal([{ seen: 0 }, { seen: 1 }]);
    expect(handled.revision).to.equal(1);
  });
});
