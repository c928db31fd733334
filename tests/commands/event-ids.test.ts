import { expect } from 'chai';
import { newEventId } from '../../commands/event-ids.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Event ids are time-ordered UUIDs (version 7), so the tables keyed by them grow at their end (docs/decisions/0270). */
describe('event ids', () => {
  it('are version 7 UUIDs whose first 48 bits are the time in milliseconds', () => {
    const at = Date.UTC(2026, 10, 23, 16, 0, 0, 123);
    const id = newEventId(at);
    expect(id).to.match(V7);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).to.equal(at);
  });

  it('sort by the time they were made, and differ within one millisecond', () => {
    const at = Date.now();
    const ids = [newEventId(at - 2), newEventId(at - 1), newEventId(at)];
    expect([...ids].sort()).to.deep.equal(ids);
    const same = new Set(Array.from({ length: 1000 }, () => newEventId(at)));
    expect(same.size).to.equal(1000);
    for (const id of same) expect(id.slice(0, 13)).to.equal(ids[2]?.slice(0, 13));
  });
});

describe('event ids made in turn in different milliseconds', () => {
  it('each carry their own millisecond (the time part is kept per millisecond, docs/decisions/0323)', () => {
    const at = Date.UTC(2026, 10, 26, 21, 0, 0, 0);
    for (const ms of [at, at + 1, at, at + 65_536, at + 1, at]) {
      const id = newEventId(ms);
      expect(id).to.match(V7);
      expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).to.equal(ms);
    }
  });
});
