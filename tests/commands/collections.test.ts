import { expect } from 'chai';
import { join } from 'node:path';
import { CommandBus } from '../../commands/command-bus.js';
import { collectionNode, createCollection, deleteCollection } from '../../commands/collections.js';
import { afterCollectionsDeleted } from '../../commands/reactors/cascades.js';
import { connectCollection, createApi } from '../../commands/delivery-apis.js';
import { streams } from '../../commands/streams.js';
import { collections } from '../../domain/collections/decider.js';
import { deliveryApis } from '../../domain/delivery-apis/decider.js';
import { DEFAULT_DESCRIPTIONS } from '../../domain/delivery-apis/events.js';
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

  it('ends a connection left behind by a delete whose sweep never ran, at the next collection delete', async () => {
    const input = { name: 'X', parent: null, strict_reference: false, auto_remove_revisions: null, auto_remove_schema_versions: null };
    const a = await createCollection(bus, ctx, { ...input, alias: 'left' });
    const b = await createCollection(bus, ctx, { ...input, alias: 'right' });
    const api = await createApi(bus, ctx, {
      name: 'Site', prefix: 'site', description: '', version: '1', is_auth_required: false, mcp_enabled: true,
      router_introspection_enabled: true, cors_origins: [],
    });
    const connection = { ...DEFAULT_DESCRIPTIONS, allowed_methods: [], mcp_truncate_text: 1000, unscoped_levels: [], unscoped_ancestors: [] };
    await connectCollection(bus, ctx, api.key, { ...connection, folder: a.key });
    await connectCollection(bus, ctx, api.key, { ...connection, folder: b.key });
    // The collection delete alone, as if the process stopped before the connection sweep.
    await bus.handle(collections, streams.collections(ctx.env), { type: 'DeleteCollection', data: { env: ctx.env, key: a.key } }, ctx.metadata);
    const connected = async () => Object.keys((await new CommandBus(store).load(deliveryApis, streams.deliveryApis(ctx.env))).state.apis[api.key]?.connections ?? {});
    expect(await connected()).to.have.members([a.key, b.key]);
    await deleteCollection(bus, ctx, b.key);
    await afterCollectionsDeleted(bus, null, ctx, [b.key]);
    expect(await connected()).to.deep.equal([]);
  });
});
