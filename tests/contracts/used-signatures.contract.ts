import { expect } from 'chai';
import type { UsedSignatures } from '../../read-api/auth/secure-signature.js';

/**
 * The port of used Secure signatures (docs/decisions/0335), for every adapter: `open` gives a
 * new handle on the same storage each time it is called (a second process, or a restart).
 */
export function usedSignaturesContract(open: () => Promise<UsedSignatures>): void {
  it('records a first use, refuses a second until it expires, then takes it over', async () => {
    const id = `k:${Math.random()}`;
    const used = await open();
    try {
      expect(await used.firstUse(id, 100_000, 0)).to.equal(true);
      expect(await used.firstUse(id, 150_000, 50_000)).to.equal(false);
      expect(await used.firstUse(`${id}-other`, 150_000, 50_000)).to.equal(true);
      expect(await used.firstUse(id, 300_000, 100_000), 'expired: taken over').to.equal(true);
      expect(await used.firstUse(id, 300_000, 150_000)).to.equal(false);
    } finally {
      await used.close();
    }
  });

  it('is seen by a second handle on the same storage, and after the first is closed', async () => {
    const id = `k:${Math.random()}`;
    const first = await open();
    const second = await open();
    try {
      expect(await first.firstUse(id, 100_000, 0)).to.equal(true);
      expect(await second.firstUse(id, 100_000, 10_000)).to.equal(false);
      await first.close();
      const third = await open();
      expect(await third.firstUse(id, 100_000, 20_000)).to.equal(false);
      await third.close();
    } finally {
      await first.close();
      await second.close();
    }
  });
}
