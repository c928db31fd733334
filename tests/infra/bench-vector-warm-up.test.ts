import { expect } from 'chai';
import { warmVectorCopy } from '../../infra/bench/vector-warm-up.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('benchmark: the vector copy warm-up (docs/decisions/0205)', () => {
  it('goes on until twenty searches in a row answer fast, and counts them', async () => {
    // Slow answers (sqlite-vec) for the first five, one slow answer in the middle of the fast run.
    const slow = new Set([0, 1, 2, 3, 4, 15]);
    const warm = await warmVectorCopy(async (i) => {
      if (slow.has(i)) await sleep(15);
      return 200;
    });
    expect(warm.loaded).to.equal(true);
    expect(warm.searches).to.equal(16 + 20);
    expect(warm.ms).to.be.greaterThan(6 * 15 - 5);
  });

  it('stops at the first answer other than 200', async () => {
    let error: unknown = null;
    await warmVectorCopy(async (i) => (i === 3 ? 500 : 200)).catch((e: unknown) => (error = e));
    expect(String(error)).to.contain('answered 500');
  });
});
