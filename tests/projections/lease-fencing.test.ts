import { expect } from 'chai';
import { join } from 'node:path';
import type { StoredEvent } from '../../commands/ports.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { SqliteLeases } from '../../infra/sqlite/leases.js';
import { SqliteReadStore } from '../../infra/sqlite/read-store.js';
import { CheckpointWatcher } from '../../projections/checkpoint-watcher.js';
import type { Leases } from '../../projections/lease.js';
import { LeasedProjection } from '../../projections/leased-projection.js';
import { ProjectionRunner, type ProjectionTarget } from '../../projections/runner.js';
import { tempDir } from '../support/temp.js';

const metadata = { actor_type: 'system' as const, actor: null, ip_address: null, referer: null, timestamp: '' };
const TTL_MS = 300;
const EVERY_MS = 50;

/** A gate a "process" can be frozen at: everything that passes it waits while it is shut. */
class Gate {
  private opened: Promise<void> = Promise.resolve();
  private open: () => void = () => {};
  shut(): void {
    this.opened = new Promise((resolve) => (this.open = resolve));
  }
  release(): void {
    this.open();
  }
  pass(): Promise<void> {
    return this.opened;
  }
}

/** One process on the data: its own read-store connection, its own leases handle, and a gate that pauses its batches and renewals. */
function processOn(file: string, events: SqliteEventStore, holder: string) {
  const store = new SqliteReadStore(file);
  const leases = new SqliteLeases(file);
  const gate = new Gate();
  const applied: string[] = [];
  const target: ProjectionTarget = {
    name: 'counting',
    checkpoint: () => store.checkpoint('counting'),
    async apply(batch: readonly StoredEvent[], position) {
      // Frozen before its unit of work, as a process stopped (SIGSTOP, a long GC) between reading and writing.
      await gate.pass();
      await store.unitOfWork('counting', position, async (tx) => {
        for (const event of batch) await tx.collection('seen').upsert({ _id: event.id, by: holder });
      });
      applied.push(...batch.map((event) => event.id));
    },
  };
  const paused: Leases = {
    acquire: async (...args) => (await gate.pass(), leases.acquire(...args)),
    renew: async (...args) => (await gate.pass(), leases.renew(...args)),
    raise: (...args) => leases.raise(...args),
    release: (...args) => leases.release(...args),
    close: () => leases.close(),
  };
  const runner = new ProjectionRunner(events, target, { onFenced: () => slot.fenced() });
  const watcher = new CheckpointWatcher(events, 'counting', () => store.checkpoint('counting'));
  const slot: LeasedProjection = new LeasedProjection(runner, watcher, {
    leases: paused,
    holder,
    fence: (epoch) => store.fence('counting', epoch),
    ttlMs: TTL_MS,
    everyMs: EVERY_MS,
  });
  return { store, gate, slot, applied, close: async () => (await slot.stop(), await store.close(), await leases.close()) };
}

async function until(condition: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('leases: a paused holder that wakes late', () => {
  it('takes a checkpoint fenced by a higher epoch than its leases hold (the leases removed with read-models.db, the checkpoint kept)', async () => {
    const dir = tempDir();
    const events = new SqliteEventStore(join(dir, 'events.db'));
    const file = join(dir, 'read-models.db');
    const before = new SqliteReadStore(file);
    await before.fence('counting', 7);
    await before.close();
    const only = processOn(file, events, 'host/1/only');
    try {
      await events.appendToStream('s', [{ id: 'e1', type: 'Counted', data: {}, metadata }], 'no_stream');
      await only.slot.start();
      expect(only.slot.held).to.equal(true);
      expect(await only.slot.waitFor(await events.headPosition(), 5000)).to.equal(true);
      expect(only.applied).to.deep.equal(['e1']);
    } finally {
      await only.close();
      await events.close();
    }
  });

  it('cannot write its checkpoint over its successor: the successor applies everything once, the late batch rolls back', async () => {
    const dir = tempDir();
    const events = new SqliteEventStore(join(dir, 'events.db'));
    const file = join(dir, 'read-models.db');
    const first = processOn(file, events, 'host/1/first');
    const second = processOn(file, events, 'host/2/second');
    const checkpoints: string[] = [];
    const watch = setInterval(() => void first.store.checkpoint('counting').then((c) => checkpoints.push(c)), 5);
    try {
      await events.appendToStream('s', [1, 2, 3].map((n) => ({ id: `e${n}`, type: 'Counted', data: {}, metadata })), 'no_stream');
      await first.slot.start();
      await second.slot.start();
      expect(first.slot.held, 'the first takes the free lease').to.equal(true);
      expect(second.slot.held).to.equal(false);
      expect(await first.slot.waitFor(await events.headPosition(), 5000)).to.equal(true);

      // The first freezes; events go on; its lease runs out and the second takes it over.
      first.gate.shut();
      await events.appendToStream('s', [4, 5].map((n) => ({ id: `e${n}`, type: 'Counted', data: {}, metadata })), 2);
      await until(() => second.slot.held);
      const head = await events.headPosition();
      expect(await second.slot.waitFor(head, 5000), 'the successor catches up').to.equal(true);
      expect(await second.store.checkpoint('counting')).to.equal(head);

      // The first wakes: its held batch (e4, e5) is refused, it stands by and follows the checkpoint.
      first.gate.release();
      await until(() => !first.slot.held);
      await new Promise((resolve) => setTimeout(resolve, 3 * EVERY_MS));
      expect(first.applied, 'nothing applied by the first after the freeze').to.deep.equal(['e1', 'e2', 'e3']);
      expect(second.applied).to.deep.equal(['e4', 'e5']);
      expect(await second.store.checkpoint('counting')).to.equal(head);
      const seen = await second.store.collection('seen').find({ by: 'host/1/first' });
      expect(seen.map((doc) => doc._id).sort()).to.deep.equal(['e1', 'e2', 'e3']);
      expect(await first.slot.waitFor(head, 1000), 'the first answers waits from the store').to.equal(true);

      // No checkpoint ever went backwards.
      for (let i = 1; i < checkpoints.length; i++) expect(checkpoints[i]! >= checkpoints[i - 1]!, `checkpoint ${i}`).to.equal(true);
    } finally {
      clearInterval(watch);
      first.gate.release();
      await first.close();
      await second.close();
      await events.close();
    }
  });
});
