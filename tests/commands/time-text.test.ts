import { expect } from 'chai';
import { isoAt, isoNow } from '../../commands/time-text.js';

/** The time's text made once per millisecond (docs/decisions/0323) is the one toISOString gives. */
describe('time text', () => {
  it('is new Date(ms).toISOString() for each millisecond, also when one comes back after another', () => {
    const at = Date.UTC(2026, 10, 26, 21, 0, 0, 999);
    for (const ms of [at, at, at + 1, at, 0, at + 86_400_000, at + 1]) expect(isoAt(ms)).to.equal(new Date(ms).toISOString());
  });

  it('is the current time', () => {
    const before = new Date().toISOString();
    const now = isoNow();
    const after = new Date().toISOString();
    expect(now >= before && now <= after).to.equal(true);
  });
});
