import { expect } from 'chai';
import { join } from 'node:path';
import { CommandBus, type WriteGuard } from '../../commands/command-bus.js';
import type { CommandContext } from '../../commands/context.js';
import type { EventMetadata, EventStore, ExpectedRevision, NewEvent } from '../../commands/ports.js';
import { createWithReservations, type NewResourceCommand } from '../../commands/resource-reservations.js';
import { streams } from '../../commands/streams.js';
import type { Message } from '../../domain/decider.js';
import { DomainError } from '../../domain/errors.js';
import { externalId } from '../../domain/external-id/decider.js';
import { resource, type CreateResource, type UpsertResource } from '../../domain/resource/decider.js';
import { resourceQuota } from '../../domain/resource-quota/decider.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { tempDir } from '../support/temp.js';

const env = 'e1';
const now = '2026-01-01T00:00:00.000Z';
const metadata: EventMetadata = { actor_type: 'user', actor: null, ip_address: null, referer: null, timestamp: now };
const ctx: CommandContext = { env, now, metadata };

const create = (key: string, data: Partial<CreateResource['data']> = {}): CreateResource => ({
  type: 'CreateResource',
  data: {
    env, folder: 'books', key, name: null, external_id: null, resource_owner: null, created_at: now, mode: 'draft', validate_data: false,
    revision: `rev-${key}`, data: {}, size: 2, validation: { schema_version: null, errors: null, localizable: [] }, owner: { required: false, found: false }, ...data,
  },
});
const upsert = (key: string, external_id: string): UpsertResource => {
  const { name: _name, ...fields } = create(key, { external_id }).data;
  return { type: 'UpsertResource', data: { ...fields, if_match: null, keep: null } };
};

/** The events a resource's commands decide, one after another, as past events of its stream. */
function history(key: string, ...commands: Array<'CreateResource' | 'DeleteResource'>): Array<[string, Message]> {
  const folder = key.startsWith('p') ? 'authors' : 'books';
  let state = resource.initialState();
  const past: Array<[string, Message]> = [];
  for (const type of commands) {
    const command = type === 'DeleteResource' ? { type, data: { env, folder, key } } as const : create(key, { folder });
    const events = resource.decide(command, state);
    state = events.reduce(resource.evolve, state);
    past.push(...events.map((event): [string, Message] => [streams.resource(key), event]));
  }
  return past;
}
const claimed = (value: string, owner: string): [string, Message] =>
  [streams.externalId('books', value), { type: 'ExternalIdClaimed', data: { env, folder: 'books', external_id: value, resource: owner, claimed_at: now } }];
const seeded = (...keys: string[]): [string, Message] =>
  [streams.resourceQuota(env), { type: 'ResourceSlotsSeeded', data: { env, slots: keys.map((key) => ({ key, folder: 'books' })) } }];

/** What one run of the workflow left: its refusal (or none), the events it wrote by stream and type, and the claims after it. */
type Outcome = {
  readonly refusal: DomainError | null;
  readonly written: readonly string[];
  readonly slotHeld: (key: string) => Promise<boolean>;
  readonly claimOf: (value: string) => Promise<string | null>;
  readonly bus: CommandBus;
};

/** The stores of the test that runs, closed after it. */
const opened: SqliteEventStore[] = [];

type When = {
  /** RESOURCE_LIMIT, or none. */
  readonly limit?: number;
  readonly overLimit?: 422 | 403;
  readonly guard?: WriteGuard;
  /** Runs before each append of the workflow, with the type of its first event: another writer, or a failing disk. */
  readonly beforeAppend?: (type: string, store: SqliteEventStore) => Promise<void>;
};

/**
 * given(past events by stream) → when(a new resource's command, under RESOURCE_LIMIT `limit`
 * or none) → the outcome, as Emmett's DeciderSpecification but through the bus and a real store.
 */
function given(...past: Array<[string, Message]>) {
  return {
    when: async (command: NewResourceCommand, options: When = {}): Promise<Outcome> => {
      const store = new SqliteEventStore(join(tempDir(), 'events.db'));
      opened.push(store);
      for (const [stream, event] of past) await store.appendToStream(stream, [{ id: `past-${Math.random()}`, type: event.type, data: event.data, metadata }], 'any');
      const head = await store.headPosition();
      const { beforeAppend } = options;
      const racing: EventStore = Object.assign(Object.create(store) as EventStore, {
        async appendToStream(stream: string, events: readonly NewEvent[], expected: ExpectedRevision) {
          await beforeAppend?.(events[0]?.type ?? '', store);
          return store.appendToStream(stream, events, expected);
        },
      });
      const bus = new CommandBus(racing);
      if (options.guard) bus.useGuard(options.guard);
      const quota = options.limit === undefined ? null : { limit: options.limit, existing: async () => [] };
      let refusal: DomainError | null = null;
      try {
        await createWithReservations(bus, ctx, quota, command, options.overLimit ?? 422);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        refusal = error;
      }
      const written = (await store.readAll(head, 1000)).map((e) => `${e.stream.slice(0, e.stream.indexOf('-'))} ${e.type}`);
      const reader = new CommandBus(store);
      const slotHeld = async (key: string) => key in (await reader.load(resourceQuota, streams.resourceQuota(env))).state.slots;
      const claimOf = async (value: string) => (await reader.load(externalId, streams.externalId('books', value))).state.owner;
      return { refusal, written, slotHeld, claimOf, bus };
    },
  };
}

const refusedWith = (outcome: Outcome, code: string, status: number | null = null) => {
  expect(outcome.refusal, 'a refusal').to.be.instanceOf(DomainError);
  expect(outcome.refusal?.code).to.equal(code);
  expect(outcome.refusal?.status).to.equal(status);
};

describe('the reservations of a new resource, given / when / then (commands/resource-reservations.ts)', () => {
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });

  it('appends a resource that reserves nothing: no slot, no claim', async () => {
    const then = await given().when(create('r1'));
    expect(then.refusal).to.equal(null);
    expect(then.written).to.deep.equal(['resource ResourceCreated', 'resource RevisionCreated']);
  });

  it('reserves the slot, claims the external_id, then appends the resource, in that order', async () => {
    const then = await given().when(create('r1', { external_id: 'isbn-1' }), { limit: 5 });
    expect(then.refusal).to.equal(null);
    expect(then.written).to.deep.equal([
      'resourcequota ResourceSlotsSeeded', 'resourcequota ResourceSlotReserved', 'extid ExternalIdClaimed', 'resource ResourceCreated', 'resource RevisionCreated',
    ]);
    expect(await then.slotHeld('r1')).to.equal(true);
    expect(await then.claimOf('isbn-1')).to.equal('r1');
  });

  it('refuses invalid input (a strict-reference collection without its parent) before anything is claimed', async () => {
    const then = await given().when(create('r1', { external_id: 'isbn-1', owner: { required: true, found: false } }), { limit: 5 });
    refusedWith(then, 'resource_owner_required');
    expect(then.written).to.deep.equal([]);
  });

  it('refuses a parent that is not a resource of the parent collection with resource_owner_not_found, writing nothing', async () => {
    const then = await given().when(create('r1', { resource_owner: 'p1', owner: { required: true, found: false } }), { limit: 5 });
    refusedWith(then, 'resource_owner_not_found');
    expect(then.written).to.deep.equal([]);
  });

  it('refuses a create at the limit with 422 plan_limit_exceeded, and an upsert with 403, writing nothing', async () => {
    const atLimit = given(seeded('a', 'b'));
    const created = await atLimit.when(create('r1', { external_id: 'isbn-1' }), { limit: 2 });
    refusedWith(created, 'plan_limit_exceeded', 422);
    expect(created.refusal?.detail).to.deep.equal({ entity: 'resources', current: 2, limit: 2 });
    expect(created.written).to.deep.equal([]);
    const upserted = await atLimit.when(upsert('r1', 'isbn-1'), { limit: 2, overLimit: 403 });
    refusedWith(upserted, 'plan_limit_exceeded', 403);
    expect(upserted.written).to.deep.equal([]);
  });

  it('refuses an external_id another resource holds with 409, before a slot is reserved (nothing reserved and released)', async () => {
    const taken = given(...history('r0', 'CreateResource'), claimed('isbn-1', 'r0'));
    for (const limit of [5, undefined]) {
      const then = await taken.when(create('r1', { external_id: 'isbn-1' }), { limit });
      refusedWith(then, 'external_id_conflict');
      expect(then.written, `limit ${limit}`).to.deep.equal([]);
      expect(await then.claimOf('isbn-1')).to.equal('r0');
    }
  });

  it('releases the slot when the claim is lost to another create after the first check (409)', async () => {
    let raced = false;
    const then = await given().when(create('r1', { external_id: 'isbn-1' }), {
      limit: 5,
      beforeAppend: async (type, store) => {
        if (type !== 'ExternalIdClaimed' || raced) return;
        raced = true;
        const [stream, event] = claimed('isbn-1', 'other');
        await store.appendToStream(stream, [{ id: 'interloper', type: event.type, data: event.data, metadata }], 'any');
      },
    });
    refusedWith(then, 'external_id_conflict');
    expect(then.written).to.deep.equal([
      'resourcequota ResourceSlotsSeeded', 'resourcequota ResourceSlotReserved', 'extid ExternalIdClaimed', 'resourcequota ResourceSlotReleased',
    ]);
    expect(await then.slotHeld('r1'), 'the slot is free again').to.equal(false);
    expect(await then.claimOf('isbn-1'), 'the claim is the other create\'s').to.equal('other');
  });

  it('deletes a child whose parent was deleted after the owner check, answers 422 resource_owner_not_found, and leaves nothing claimed', async () => {
    const parentGone = given(...history('p1', 'CreateResource', 'DeleteResource'));
    const child = create('r1', { external_id: 'isbn-1', resource_owner: 'p1', owner: { required: true, found: true } });
    const then = await parentGone.when(child, { limit: 5 });
    refusedWith(then, 'resource_owner_not_found');
    expect(then.written).to.deep.equal([
      'resourcequota ResourceSlotsSeeded', 'resourcequota ResourceSlotReserved', 'extid ExternalIdClaimed',
      'resource ResourceCreated', 'resource RevisionCreated', 'resource ResourceDeleted', 'resourcequota ResourceSlotReleased',
    ]);
    expect(await then.slotHeld('r1')).to.equal(false);
    // The claim of a deleted resource is free: the next create of the value takes it at once.
    await createWithReservations(then.bus, ctx, { limit: 5, existing: async () => [] }, create('r2', { external_id: 'isbn-1' }), 422);
    expect(await then.claimOf('isbn-1')).to.equal('r2');
  });

  it('asks the write guards once, with the create, before anything is written: their refusal writes nothing', async () => {
    const asked: string[] = [];
    const guard: WriteGuard = async (_stream, command) => {
      asked.push(command.type);
      throw new DomainError('environment_protected', 'Protected.');
    };
    const then = await given().when(create('r1', { external_id: 'isbn-1' }), { limit: 5, guard });
    refusedWith(then, 'environment_protected');
    expect(asked).to.deep.equal(['CreateResource']);
    expect(then.written).to.deep.equal([]);
  });

  it('does not ask the guards again once the create is admitted: the slot and the claim are later steps (docs/decisions/0152)', async () => {
    const asked: string[] = [];
    const guard: WriteGuard = async (_stream, command) => {
      asked.push(command.type);
      if (command.type !== 'CreateResource') throw new DomainError('environment_protected', 'Protected halfway.');
    };
    const then = await given().when(create('r1', { external_id: 'isbn-1' }), { limit: 5, guard });
    expect(then.refusal).to.equal(null);
    expect(asked).to.deep.equal(['CreateResource']);
    expect(await then.claimOf('isbn-1')).to.equal('r1');
  });

  it('releases the slot when the append itself fails, and passes the failure on', async () => {
    const then = await given().when(create('r1'), {
      limit: 5,
      beforeAppend: async (type) => {
        if (type === 'ResourceCreated') throw new DomainError('storage_full', 'No space left.');
      },
    });
    refusedWith(then, 'storage_full');
    expect(then.written).to.deep.equal(['resourcequota ResourceSlotsSeeded', 'resourcequota ResourceSlotReserved', 'resourcequota ResourceSlotReleased']);
    expect(await then.slotHeld('r1')).to.equal(false);
  });
});
