import { expect } from 'chai';
import { CommandBus, ON_VERSION_CONFLICT } from '../../commands/command-bus.js';
import { WrongExpectedRevision, type EventStore, type ExpectedRevision, type NewEvent } from '../../commands/ports.js';
import { DomainError } from '../../domain/errors.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { counter, metadata } from '../support/counter-decider.js';
import { tempDir } from '../support/temp.js';

describe('command bus: the retry on version conflict is a declared policy', () => {
  let store: SqliteEventStore;
  /** Appends another writer makes right before each of the next `racing` appends of the bus. */
  let racing = 0;
  let appends = 0;
  let failing: Error | null = null;
  let racy: EventStore;

  beforeEach(() => {
    store = new SqliteEventStore(`${tempDir()}/events.db`);
    racing = 0;
    appends = 0;
    failing = null;
    racy = Object.assign(Object.create(store) as EventStore, {
      async appendToStream(stream: string, events: readonly NewEvent[], expected: ExpectedRevision) {
        appends += 1;
        if (failing) throw failing;
        if (racing > 0) {
          racing -= 1;
          await store.appendToStream(stream, [{ id: `other-${appends}`, type: 'Inc', data: { seen: -1 }, metadata }], 'any');
        }
        return store.appendToStream(stream, events, expected);
      },
    });
  });
  afterEach(async () => store.close());

  it('decides again on the state the other writer left, by default up to five tries', async () => {
    expect(ON_VERSION_CONFLICT.retries).to.equal(4);
    racing = 4;
    const handled = await new CommandBus(racy).handle(counter, 's', { type: 'Inc', data: {} }, metadata);
    expect(appends).to.equal(5);
    expect(handled.revision, 'after the four other writes').to.equal(4);
    expect((await store.readStream('s')).at(-1)?.data).to.deep.equal({ seen: 4 });
  });

  it('answers 409 revision_number_conflict once the policy given to the bus has no tries left, and appends nothing', async () => {
    racing = 10;
    const bus = new CommandBus(racy, undefined, { retries: 1, on: (error) => error instanceof WrongExpectedRevision });
    const refused = await bus.handle(counter, 's', { type: 'Inc', data: {} }, metadata).catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(DomainError);
    expect((refused as DomainError).code).to.equal('revision_number_conflict');
    expect(appends, 'two tries').to.equal(2);
    expect((await store.readStream('s')).map((e) => e.id)).to.deep.equal(['other-1', 'other-2']);
  });

  it('does not retry a failure the policy does not name', async () => {
    failing = new Error('disk full');
    const refused = await new CommandBus(racy).handle(counter, 's', { type: 'Inc', data: {} }, metadata).catch((error: unknown) => error);
    expect((refused as Error).message).to.equal('disk full');
    expect(appends).to.equal(1);
  });
});
