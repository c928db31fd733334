import { expect } from 'chai';
import { join } from 'node:path';
import { CommandBus } from '../../commands/command-bus.js';
import { collectionNode, createCollection } from '../../commands/collections.js';
import type { CommandContext } from '../../commands/context.js';
import { bootstrap } from '../../commands/tenancy.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { tempDir } from '../support/temp.js';

describe('collection commands', () => {
  let store: SqliteEventStore;
  let bus: CommandBus;
  let ctx: CommandContext;

  before(async () => {
    store = new SqliteEventStore(join(tempDir(), 'events.db'));
    bus = new CommandBus(store);
    const now = '2026-01-01T00:00:00.000Z';
    const { environment } = await bootstrap(bus, { plan: 'free', email: 'a@example.com', now });
    ctx = { env: environment, now, metadata: { actor_type: 'system', actor: null, ip_address: null, referer: null, timestamp: now } };
  });
  after(async () => store.close());

  it('gives other handlers the auto-remove settings through collectionNode', async () => {
    const input = { name: 'Blog', alias: 'blog', parent: null, strict_reference: false };
    const tidy = await createCollection(bus, ctx, { ...input, auto_remove_revisions: 7, auto_remove_schema_versions: 100 });
    const plain = await createCollection(bus, ctx, { ...input, alias: 'news', auto_remove_revisions: null, auto_remove_schema_versions: null });
    // A fresh bus reads the stream from the store, not from the writer's cache.
    const fresh = new CommandBus(store);
    expect(await collectionNode(fresh, ctx.env, tidy.key)).to.include({ auto_remove_revisions: 7, auto_remove_schema_versions: 100 });
    expect(await collectionNode(fresh, ctx.env, plain.key)).to.include({ auto_remove_revisions: null, auto_remove_schema_versions: null });
    expect(await collectionNode(fresh, ctx.env, 'nope')).to.equal(null);
  });
});
