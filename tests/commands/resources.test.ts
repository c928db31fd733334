import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { CommandBus } from '../../commands/command-bus.js';
import { createCollection } from '../../commands/collections.js';
import type { CommandContext } from '../../commands/context.js';
import { DataValidator } from '../../commands/data-validator.js';
import type { EventStore, ExpectedRevision, NewEvent } from '../../commands/ports.js';
import { createResource, deleteResource } from '../../commands/resources.js';
import { upsertResource } from '../../commands/upsert.js';
import { streams } from '../../commands/streams.js';
import { bootstrap } from '../../commands/tenancy.js';
import { DomainError } from '../../domain/errors.js';
import { resource } from '../../domain/resource/decider.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { tempDir } from '../support/temp.js';

describe('resource commands under racing writers', () => {
  let store: SqliteEventStore;
  let bus: CommandBus;
  let ctx: CommandContext;
  /** Runs once right before the next append of a ResourceCreated event. */
  let beforeCreate: (() => Promise<void>) | null = null;
  /** Runs before every append of a RevisionCreated event while set. */
  let beforeRevision: ((stream: string) => Promise<void>) | null = null;

  before(async () => {
    store = new SqliteEventStore(join(tempDir(), 'events.db'));
    const racing: EventStore = Object.assign(Object.create(store) as EventStore, {
      async appendToStream(stream: string, events: readonly NewEvent[], expected: ExpectedRevision) {
        const hook = beforeCreate;
        if (hook && events[0]?.type === 'ResourceCreated') {
          beforeCreate = null;
          await hook();
        }
        if (beforeRevision && events[0]?.type === 'RevisionCreated') await beforeRevision(stream);
        return store.appendToStream(stream, events, expected);
      },
    });
    bus = new CommandBus(racing);
    const now = '2026-01-01T00:00:00.000Z';
    const { environment } = await bootstrap(bus, { plan: 'free', email: 'a@example.com', now });
    ctx = { env: environment, now, metadata: { actor_type: 'system', actor: null, ip_address: null, referer: null, timestamp: now } };
  });
  after(async () => store.close());

  it('deletes the child again and refuses it with resource_owner_not_found when the parent was deleted before the child was appended', async () => {
    const settings = { auto_remove_revisions: null, auto_remove_schema_versions: null };
    const parents = await createCollection(bus, ctx, { name: 'P', alias: 'p', parent: null, strict_reference: false, ...settings });
    const children = await createCollection(bus, ctx, { name: 'C', alias: 'c', parent: parents.key, strict_reference: true, ...settings });
    const validator = new DataValidator();
    const draft = { name: null, external_id: null, mode: 'draft' as const, validate_data: false, data: {} };
    const parent = await createResource(bus, validator, ctx, { ...draft, folder: parents.key, resource_owner: null });
    beforeCreate = async () => {
      await deleteResource(bus, ctx, parents.key, parent.key);
    };
    let refused: unknown;
    try {
      await createResource(bus, validator, ctx, { ...draft, folder: children.key, resource_owner: parent.key });
    } catch (error) {
      refused = error;
    }
    expect(refused).to.be.instanceOf(DomainError);
    expect((refused as DomainError).code).to.equal('resource_owner_not_found');
    const created = (await store.readAll('', 10_000)).filter((e) => e.type === 'ResourceCreated').map((e) => e.stream);
    const child = created.find((stream) => stream !== streams.resource(parent.key));
    expect(child).to.be.a('string');
    const { state } = await new CommandBus(store).load(resource, child as string);
    expect(state.status, 'the late child is deleted again').to.equal('deleted');
  });

  it('answers 409 revision_number_conflict when another writer wins the next revision number on every retry', async () => {
    const folder = await createCollection(bus, ctx, { name: 'U', alias: 'u', parent: null, strict_reference: false, auto_remove_revisions: null, auto_remove_schema_versions: null });
    const validator = new DataValidator();
    const input = { folder: folder.key, external_id: 'x1', resource_owner: null, mode: 'draft' as const, validate_data: false, data: {}, if_match: null };
    const first = await upsertResource(bus, validator, ctx, input);
    let interlopers = 0;
    beforeRevision = async (stream) => {
      interlopers += 1;
      const data = { env: ctx.env, folder: folder.key, key: first.key, name: `other writer ${interlopers}` };
      await store.appendToStream(stream, [{ id: randomUUID(), type: 'ResourceUpdated', data, metadata: ctx.metadata }], 'any');
    };
    let refused: unknown;
    try {
      await upsertResource(bus, validator, ctx, input);
    } catch (error) {
      refused = error;
    } finally {
      beforeRevision = null;
    }
    expect((refused as DomainError).code).to.equal('revision_number_conflict');
    expect(interlopers, 'a bounded number of attempts').to.equal(5);
    const { state } = await new CommandBus(store).load(resource, streams.resource(first.key));
    expect(state.status === 'active' && state.live.length, 'the refused write left no revision').to.equal(1);
  });
});
