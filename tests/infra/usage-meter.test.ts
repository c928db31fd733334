import { expect } from 'chai';
import { UsageMeter } from '../../infra/billing/usage-meter.js';
import type { Usage } from '../../projections/usage.js';

const usage = (writes: number): Usage => ({ projects: 1, resources: 2, data_storage: 3, vector_storage: 4, writes });

/** The billing guard's usage reads, kept until the usage projection's next batch (docs/decisions/0270). */
describe('billing: the usage meter', () => {
  it('reads an organization and window once until forgotten, then reads what the store holds then', async () => {
    const reads: string[] = [];
    let writes = 5;
    const meter = new UsageMeter(async (org, window) => {
      reads.push(`${org} ${window}`);
      return usage(writes);
    });
    expect((await meter.of('o1', '2026-11')).writes).to.equal(5);
    writes = 6;
    expect((await meter.of('o1', '2026-11')).writes).to.equal(5);
    expect((await meter.of('o2', '2026-11')).writes).to.equal(6);
    expect((await meter.of('o1', '2026-12')).writes).to.equal(6);
    expect(reads).to.deep.equal(['o1 2026-11', 'o2 2026-11', 'o1 2026-12']);
    meter.forget();
    expect((await meter.of('o1', '2026-11')).writes).to.equal(6);
    expect(reads).to.have.length(4);
  });

  it('shares one read between writes that ask at the same time, and hands out a copy no caller can change', async () => {
    let reads = 0;
    const stored = usage(1);
    const meter = new UsageMeter(async () => {
      reads += 1;
      return stored;
    });
    const [a, b] = await Promise.all([meter.of('o', 'w'), meter.of('o', 'w')]);
    expect(reads).to.equal(1);
    expect(a).to.equal(b);
    expect(Object.isFrozen(a)).to.equal(true);
    expect(a).to.not.equal(stored);
  });

  it('does not keep a failed read: the next write reads again', async () => {
    let fail = true;
    const meter = new UsageMeter(async () => {
      if (fail) throw new Error('read store closed');
      return usage(2);
    });
    let error: unknown = null;
    await meter.of('o', 'w').catch((e: unknown) => (error = e));
    expect((error as Error).message).to.equal('read store closed');
    fail = false;
    expect((await meter.of('o', 'w')).writes).to.equal(2);
  });
});
