import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { EventMetadata, NewEvent, StoredEvent } from '../../commands/ports.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { jsonCopy } from '../../infra/sqlite/stored-event.js';
import { tempDir } from '../support/temp.js';

const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** Collects what a subscriber of `$all` receives until it has `n` events. */
async function pageEvents(store: SqliteEventStore, n: number): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  const subscription = store.subscribeToAll('').subscribe((e) => events.push(e));
  const deadline = Date.now() + 3000;
  while (events.length < n) {
    if (Date.now() > deadline) throw new Error(`${events.length} of ${n} events`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  subscription.unsubscribe();
  return events;
}

/** docs/decisions/0328: a group's `$all` page takes copies made with the events' text instead of parsing it again. */
describe('SQLite event store: the handed page from copies of the appended events', () => {
  describe('jsonCopy', () => {
    it('copies JSON-exact values into fresh objects equal to their stringify and parse', () => {
      const values: unknown[] = [
        'text \u2028 "q" \u{1F600}',
        true,
        null,
        0,
        -1.5,
        1e21,
        [],
        {},
        { a: 1, b: [1, 'two', null, { c: false }], nested: { deep: { deeper: ['x'] } }, 2: 'int key', 1: 'first' },
        JSON.parse('{"z": 1, "a": 2, "10": 3, "9": 4}'),
      ];
      for (const value of values) {
        const copy = jsonCopy(value);
        expect(copy).to.deep.equal(roundTrip(value));
        // The same key order as a parse of the text gives.
        if (typeof value === 'object' && value !== null) {
          expect(JSON.stringify(copy)).to.equal(JSON.stringify(value));
          expect(copy).to.not.equal(value);
        }
      }
      const source = { list: [{ a: 1 }], inner: { b: 2 } };
      const copy = jsonCopy(source) as typeof source;
      expect(copy.list).to.not.equal(source.list);
      expect(copy.list[0]).to.not.equal(source.list[0]);
      expect(copy.inner).to.not.equal(source.inner);
    });

    it('refuses what a stringify and parse would change, however deep', () => {
      class Point {
        x = 1;
      }
      const nullProto = Object.create(null) as Record<string, unknown>;
      nullProto.a = 1;
      const withAccessorFree = Object.defineProperty({ a: 1 }, 'hidden', { value: 2, enumerable: false });
      const refused: unknown[] = [
        -0,
        NaN,
        Infinity,
        undefined,
        () => 1,
        Symbol('s'),
        10n,
        new Date(0),
        new Point(),
        nullProto,
        // eslint-disable-next-line no-sparse-arrays
        [1, , 3],
        [1, undefined],
        { a: undefined },
        { a: { b: [1, { c: -0 }] } },
        JSON.parse('{"__proto__": {"polluted": true}}'),
        new Map([[1, 2]]),
      ];
      for (const value of refused) expect(jsonCopy(value), String(typeof value)).to.equal(undefined);
      // Non-enumerable properties are not part of the text, nor of the copy.
      expect(jsonCopy(withAccessorFree)).to.deep.equal({ a: 1 });
    });
  });

  describe('the page', () => {
    const open: SqliteEventStore[] = [];
    afterEach(async () => {
      for (const s of open.splice(0)) await s.close();
    });

    it('gives exactly the events a read of the file gives, whatever the appended objects held, and nothing they become later', async () => {
      const store = new SqliteEventStore(`${tempDir()}/events.db`);
      open.push(store);
      const metadata: EventMetadata = { actor_type: 'user', actor: { id: 'u-1' }, ip_address: '127.0.0.1', referer: null, timestamp: '2026-01-01T00:00:00Z' };
      const plain = { title: 'hello', tags: ['a'], nested: { n: 1 } };
      const awkward = { when: new Date(Date.UTC(2026, 0, 1)), gone: undefined, zero: -0, ...JSON.parse('{"__proto__": {"x": 1}}') };
      const events: NewEvent[] = [
        { id: randomUUID(), type: 'A', data: plain, metadata },
        { id: randomUUID(), type: 'B', data: awkward, metadata },
        { id: randomUUID(), type: 'C', data: [1, { deep: [2] }], metadata: { ...metadata, actor: { id: 'u-2', since: new Date(0) } as Record<string, unknown> } },
      ];
      const appended = store.appendToStream('s', events, 'no_stream');
      // Changed after the append was asked for and before it was committed: the stored text has this.
      plain.tags.push('b');
      await appended;
      // Changed after the commit: neither the text nor the page has this.
      plain.nested.n = 99;
      plain.tags.push('late');
      (metadata.actor as Record<string, unknown>).id = 'changed';
      const page = await pageEvents(store, 3);
      const read = await store.readAll('', 10);
      expect(page).to.deep.equal(read);
      expect(page[0]!.data).to.deep.equal({ title: 'hello', tags: ['a', 'b'], nested: { n: 1 } });
      expect(page[0]!.data).to.not.equal(plain);
      expect(page[0]!.metadata).to.not.equal(metadata);
      expect(page[0]!.metadata.actor).to.deep.equal({ id: 'u-1' });
      expect(page[1]!.data).to.deep.equal({ when: '2026-01-01T00:00:00.000Z', zero: 0, ['__proto__']: { x: 1 } });
      expect(Object.is((page[1]!.data as { zero: number }).zero, 0)).to.equal(true);
      expect(page[2]!.metadata.actor).to.deep.equal({ id: 'u-2', since: '1970-01-01T00:00:00.000Z' });
    });
  });
});
