import { expect } from 'chai';
import { LeaseLost, type Leases } from '../../projections/lease.js';
import type { ReadStore } from '../../projections/ports.js';

/** Two handles on the same storage, as two processes have them. */
export type LeaseHandles = { readonly leases: Leases; readonly store: ReadStore };

/**
 * Leases and fenced checkpoints (docs/decisions/0386), for every adapter: `open` gives a new
 * handle on the same storage each time it is called (another process).
 */
export function leasesContract(open: () => Promise<LeaseHandles>): void {
  const close = async (...handles: LeaseHandles[]): Promise<void> => {
    for (const h of handles) await Promise.all([h.leases.close(), h.store.close()]);
  };

  it('gives a free lease epoch 1, refuses it to another holder while it lives, and renews it for its holder', async () => {
    const name = `p-${Math.random()}`;
    const [a, b] = [await open(), await open()];
    try {
      expect(await a.leases.acquire(name, 'host/1/a', 3000, 1_000)).to.equal(1);
      expect(await b.leases.acquire(name, 'host/2/b', 3000, 2_000)).to.equal(null);
      expect(await a.leases.acquire(name, 'host/1/a', 3000, 2_000), 'its own, again').to.equal(1);
      expect(await a.leases.renew(name, 'host/1/a', 1, 3000, 3_000)).to.equal(true);
      expect(await b.leases.acquire(name, 'host/2/b', 3000, 5_000), 'renewed until 6,000').to.equal(null);
    } finally {
      await close(a, b);
    }
  });

  it('passes an expired lease to the next holder with a higher epoch, and the old holder can renew it no more', async () => {
    const name = `p-${Math.random()}`;
    const [a, b] = [await open(), await open()];
    try {
      expect(await a.leases.acquire(name, 'host/1/a', 3000, 1_000)).to.equal(1);
      expect(await b.leases.acquire(name, 'host/2/b', 3000, 4_000)).to.equal(2);
      expect(await a.leases.renew(name, 'host/1/a', 1, 3000, 4_500)).to.equal(false);
      expect(await a.leases.acquire(name, 'host/1/a', 3000, 4_500)).to.equal(null);
      await b.leases.release(name, 'host/2/b', 2);
      expect(await a.leases.acquire(name, 'host/1/a', 3000, 4_600), 'released: free at once').to.equal(3);
      expect(await b.leases.raise(name, 'host/2/b', 2, 9), 'no longer its holder').to.equal(null);
      expect(await a.leases.raise(name, 'host/1/a', 3, 9), 'raised past a checkpoint fenced with 9').to.equal(10);
      expect(await a.leases.renew(name, 'host/1/a', 10, 3000, 4_700)).to.equal(true);
    } finally {
      await close(a, b);
    }
  });

  it('refuses the checkpoint of a holder fenced out by a later epoch, and keeps its successor checkpoint', async () => {
    const consumer = `c_${Math.random().toString(36).slice(2)}`;
    const [old, next] = [await open(), await open()];
    try {
      await old.store.fence!(consumer, 1);
      await old.store.unitOfWork(consumer, '00000000000000000005', async () => {});
      await next.store.fence!(consumer, 2);
      expect(await next.store.checkpoint(consumer), 'fencing keeps the position').to.equal('00000000000000000005');
      await next.store.unitOfWork(consumer, '00000000000000000009', async (tx) => tx.collection('fenced').upsert({ _id: 'by-next', n: 9 }));
      let refused: unknown = null;
      await old.store
        .unitOfWork(consumer, '00000000000000000007', async (tx) => tx.collection('fenced').upsert({ _id: 'by-old', n: 7 }))
        .catch((error: unknown) => (refused = error));
      expect(refused).to.be.instanceOf(LeaseLost);
      expect(await next.store.checkpoint(consumer)).to.equal('00000000000000000009');
      expect(await next.store.collection('fenced').get('by-next')).to.include({ n: 9 });
      let lower: unknown = null;
      await old.store.fence!(consumer, 1).catch((error: unknown) => (lower = error));
      expect(lower, 'an epoch never goes back').to.be.instanceOf(LeaseLost);
      expect((lower as LeaseLost).stored, 'the refusal tells the epoch the checkpoint holds').to.equal(2);
    } finally {
      await close(old, next);
    }
  });
}
