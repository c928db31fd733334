import { expect } from 'chai';
import type { AppendResult, ExpectedRevision, NewEvent, StoredEvent } from '../../commands/ports.js';
import { checkpointTarget, type CheckpointDeps } from '../../commands/reactors/audit-checkpoints.js';
import type { SignedCheckpoint } from '../../domain/audit-checkpoint.js';

const pos = (n: number): string => String(n).padStart(20, '0');
const event = (n: number, stream = `s-${n}`): StoredEvent => ({
  id: `e${n}`,
  stream,
  revision: 0,
  position: pos(n),
  type: 'Something',
  data: { n },
  metadata: { actor_type: 'system', actor: null, ip_address: null, referer: null, timestamp: '2026-11-27T00:00:00.000Z' },
});

/** The checkpoint stream in memory; `failNext` refuses the next append. */
function fakeStore() {
  const stream: StoredEvent[] = [];
  const state = { failNext: false };
  return {
    stream,
    state,
    store: {
      async appendToStream(name: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
        if (state.failNext) {
          state.failNext = false;
          throw new Error('disk full');
        }
        expect(expected).to.equal(stream.length === 0 ? 'no_stream' : stream.length - 1);
        for (const e of events) stream.push({ ...e, stream: name, revision: stream.length, position: pos(1000 + stream.length) });
        return { revision: stream.length - 1, position: pos(1000 + stream.length - 1) };
      },
      async readStream(): Promise<StoredEvent[]> {
        return [...stream];
      },
    },
  };
}

const deps = (store: CheckpointDeps['store']): CheckpointDeps => ({
  store,
  chain: (previous, e) => `${previous}>${e.id}`,
  genesis: 'G',
  sign: (message) => `signed(${message})`,
  key: 'k',
  everyEvents: 5,
  everySeconds: 3600,
  now: () => '2026-11-27T00:00:00.000Z',
  signed: () => {},
  log: () => {},
  ownPosition: (p) => /^\d{20}$/.test(p),
});

const chainOf = (from: number, to: number): string => ['G', ...Array.from({ length: to - from + 1 }, (_, i) => `e${from + i}`)].join('>');

describe('the audit checkpoint signer (a reactor)', () => {
  it('signs the head after every five events, its own checkpoints not counted, each signature over the head it names', async () => {
    const { store, stream } = fakeStore();
    const target = checkpointTarget(deps(store));
    expect(await target.checkpoint()).to.equal('');
    await target.apply([1, 2, 3, 4, 5, 6].map((n) => event(n)), pos(6));
    await target.apply([event(7, 'audit-checkpoints'), ...[8, 9, 10, 11].map((n) => event(n))], pos(11));
    await target.close();
    const signed = stream.map((e) => e.data as SignedCheckpoint);
    expect(signed.map((c) => [c.position, c.events, c.head_hash])).to.deep.equal([
      [pos(5), 5, chainOf(1, 5)],
      [pos(11), 11, chainOf(1, 11)],
    ]);
    expect(signed[0]!.signature).to.equal(`signed(["audit-checkpoint","${pos(5)}",5,"${chainOf(1, 5)}","2026-11-27T00:00:00.000Z"])`);
  });

  it('throws when the append fails (the runner retries), and a retried batch is neither counted nor signed twice', async () => {
    const { store, stream, state } = fakeStore();
    const target = checkpointTarget(deps(store));
    await target.checkpoint();
    state.failNext = true;
    const batch = [1, 2, 3, 4, 5, 6].map((n) => event(n));
    let error: unknown = null;
    await target.apply(batch, pos(6)).catch((e: unknown) => (error = e));
    expect(String(error)).to.contain('disk full');
    await target.apply(batch, pos(6));
    await target.apply(batch, pos(6));
    await target.close();
    // The head it failed to sign (the fifth event), once.
    expect(stream.map((e) => (e.data as SignedCheckpoint).events)).to.deep.equal([5]);
    expect((stream[0]!.data as SignedCheckpoint).head_hash).to.equal(chainOf(1, 5));
  });

  it('resumes from the last signed head after a restart, and counts an imported log again from the start', async () => {
    const { store, stream } = fakeStore();
    const first = checkpointTarget(deps(store));
    await first.checkpoint();
    await first.apply([1, 2, 3, 4, 5].map((n) => event(n)), pos(5));
    await first.close();
    const again = checkpointTarget(deps(store));
    expect(await again.checkpoint()).to.equal(pos(5));
    await again.apply([6, 7, 8, 9, 10].map((n) => event(n)), pos(10));
    await again.close();
    expect(stream.map((e) => [(e.data as SignedCheckpoint).events, (e.data as SignedCheckpoint).head_hash])).to.deep.equal([
      [5, chainOf(1, 5)],
      [10, chainOf(1, 10)],
    ]);
    // The same checkpoints in a store whose positions look otherwise: the chain is read again from the first event.
    const imported = checkpointTarget({ ...deps(store), ownPosition: () => false });
    expect(await imported.checkpoint()).to.equal('');
    await imported.apply([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14].map((n) => event(n)), pos(14));
    await imported.close();
    expect(stream.map((e) => (e.data as SignedCheckpoint).events)).to.deep.equal([5, 10]);
    const more = checkpointTarget({ ...deps(store), ownPosition: () => false });
    await more.checkpoint();
    await more.apply([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15].map((n) => event(n)), pos(15));
    await more.close();
    expect(stream.map((e) => (e.data as SignedCheckpoint).events)).to.deep.equal([5, 10, 15]);
  });
});
