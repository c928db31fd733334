import { expect } from 'chai';
import { CommandBus } from '../../commands/command-bus.js';
import { resource } from '../../domain/resource/decider.js';
import type { PublishScheduled, UpsertResource } from '../../domain/resource/commands.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { metadata } from '../support/counter-decider.js';
import { tempDir } from '../support/temp.js';

const valid = { schema_version: 'v1', errors: [], localizable: [] };
const due = '2026-01-02T00:00:00.000Z';

describe('a scheduled publish fired twice at once (two processes) publishes once: the stream refuses the second', () => {
  it('lets one fire append, and decides the other again on the new state, where the schedule is gone', async () => {
    const store = new SqliteEventStore(`${tempDir()}/events.db`);
    try {
      const upsert: UpsertResource = {
        type: 'UpsertResource',
        data: {
          env: 'e', folder: 'c1', key: 'r1', external_id: 'x1', resource_owner: null, created_at: '2026-01-01T00:00:00.000Z', owner: { required: false, found: false },
          mode: 'draft', revision: 'rev1', data: { title: 't' }, size: 10, validation: valid, validate_data: true, if_match: null, keep: null, publish_at: due,
        },
      };
      await new CommandBus(store).handle(resource, 'resource-r1', upsert, metadata);
      const fire: PublishScheduled = {
        type: 'PublishScheduled',
        data: { env: 'e', folder: 'c1', resource: 'r1', revision: 'rev1', publish_at: due, published_at: due, data: { title: 't' }, validation: valid },
      };
      // Two buses (two processes' caches): both load the state with the schedule before either appends.
      let release = () => {};
      const barrier = new Promise<void>((resolve) => (release = resolve));
      let loaded = 0;
      const fireOn = (bus: CommandBus) =>
        bus.handle(resource, 'resource-r1', async () => {
          loaded++;
          if (loaded === 2) release();
          await barrier;
          return fire;
        }, metadata);
      const [a, b] = await Promise.all([fireOn(new CommandBus(store)), fireOn(new CommandBus(store))]);
      expect([a.events.length, b.events.length].sort()).to.deep.equal([0, 1]);
      expect(loaded).to.equal(3);
      const published = (await store.readStream('resource-r1')).filter((e) => e.type === 'RevisionPublished');
      expect(published).to.have.length(1);
    } finally {
      await store.close();
    }
  });
});
