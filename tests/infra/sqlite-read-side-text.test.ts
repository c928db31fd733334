import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { NewEvent, StoredEvent } from '../../commands/ports.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { batchText, eventsOfText } from '../../infra/sqlite/read-side-text.js';
import { tempDir } from '../support/temp.js';

const metadata = { actor_type: 'user', actor: { id: 'u-1', name: 'Zoë \u2028 "quoted"' }, ip_address: '127.0.0.1', referer: null, timestamp: '2026-01-01T00:00:00Z' } as const;
const event = (type: string, data: unknown): NewEvent => ({ id: randomUUID(), type, data, metadata });

/** Data whose stored JSON differs from the object a command handed over: the thread must see the stored form. */
const awkward = (i: number): unknown => ({
  i,
  text: `line\nbreak \u{1F600} \\ "q" ${i}`,
  nested: { list: [1, 'two', null, { deep: true }], none: null, gone: undefined },
  when: new Date(Date.UTC(2026, 0, i + 1)),
  negativeZero: -0,
  big: 1e21,
  empty: {},
  ...JSON.parse('{"__proto__": {"polluted": true}}'),
});

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

/** docs/decisions/0328: the read side's batch posted as its stored rows' text. */
describe("the read side's batch as its stored rows' text", () => {
  const open: SqliteEventStore[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
  });

  for (const handed of [true, false]) {
    it(`gives back exactly the events a read of the file gives, from a page ${handed ? 'handed over by the group commit' : 'read from the file'}`, async () => {
      const file = `${tempDir()}/events.db`;
      let store = new SqliteEventStore(file);
      open.push(store);
      await Promise.all(Array.from({ length: 12 }, (_, i) => store.appendToStream(`s-${i % 3}`, [event('A', awkward(i)), event('B', { i })], 'any')));
      if (!handed) {
        // Another store on the file: its first page is read back, not handed over.
        store = new SqliteEventStore(file);
        open.push(store);
      }
      const page = await pageEvents(store, 24);
      const read = await store.readAll('', 1000);
      const text = batchText(page);
      expect(text, 'the page kept its rows’ text').to.not.equal(null);
      expect(text!.every((field) => typeof field === 'string' || typeof field === 'number')).to.equal(true);
      const parsed = eventsOfText(structuredClone(text!));
      expect(parsed).to.deep.equal(read);
      expect(parsed).to.deep.equal(page);
      // The stored form, not the command's objects: no undefined property, the date as text, -0 as 0.
      const data = parsed[0]!.data as Record<string, unknown>;
      expect(Object.keys(data.nested as object)).to.deep.equal(['list', 'none']);
      expect(data.when).to.equal('2026-01-01T00:00:00.000Z');
      expect(Object.is(data.negativeZero, 0)).to.equal(true);
      // A batch that is a slice of pages (a runner's queue) keeps its text too.
      expect(eventsOfText(batchText(page.slice(3, 17))!)).to.deep.equal(read.slice(3, 17));
    });
  }

  it('gives null when any event of the batch was not made from a page (objects are posted then)', async () => {
    const store = new SqliteEventStore(`${tempDir()}/events.db`);
    open.push(store);
    await store.appendToStream('s', [event('A', { a: 1 }), event('B', { b: 2 })], 'any');
    const page = await pageEvents(store, 2);
    const read = await store.readAll('', 10);
    expect(batchText(read)).to.equal(null);
    expect(batchText([page[0]!, read[1]!])).to.equal(null);
    expect(batchText([{ ...page[0]! }])).to.equal(null);
    expect(batchText([])).to.deep.equal([]);
  });

  it('refuses a text whose fields are not whole events', () => {
    expect(() => eventsOfText(['id', 'stream', 0])).to.throw(/not a multiple of 7/);
  });
});
