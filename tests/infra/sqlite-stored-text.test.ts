import { expect } from 'chai';
import { SqliteSearchIndex } from '../../infra/sqlite/search-index.js';
import type { DeliveryDoc, StoredDoc } from '../../projections/ports.js';
import type { DeliveryQuery } from '../../projections/delivery-query.js';
import { listText, parsedDoc } from '../../read-api/delivery/list-text.js';
import { tempDir } from '../support/temp.js';

/** Payloads whose serialization could change on a round trip through SQLite's JSONB. */
const PAYLOADS: Record<string, unknown>[] = [
  { title: 'plain', views: 1, published: true },
  { title: 'é "quoted" \\ back\nslash\t\u0001 \u2028 \u2029 😀', views: -0.5, published: false },
  { title: 'lone \ud800 surrogate', views: 1e21, small: 1.5e-7, big: 12345678901234567000, neg: -1234.5678 },
  { title: 'nested', tags: ['a', 'b', 3, null, { x: [1, { y: 'z' }] }], meta: { color: 'red', empty: {}, list: [] } },
  { '10': 'integer-like key first', title: 'keys', b: 2, a: 1, views: 0, none: null },
  { title: '', views: Number.MAX_SAFE_INTEGER, ratio: 0.1 + 0.2, tiny: 5e-324 },
];

const doc = (n: number, data: Record<string, unknown>): DeliveryDoc => ({
  env: 'e1',
  folder: 'f1',
  key: `k"${String(n).padStart(3, '0')}`,
  created_at: `2026-01-01T00:00:${String(n).padStart(2, '0')}Z`,
  updated_at: '2026-02-01T00:00:00Z',
  owner: null,
  data,
});

/** The general path's page: every document shaped as a plain item, then serialized (read-api/delivery/list.ts). */
const generalPage = (head: { limit: number; next: string | null; previous: string | null }, docs: readonly DeliveryDoc[]): string =>
  JSON.stringify({ ...head, results: docs.map((d) => ({ _sys: { key: d.key, created_at: d.created_at, updated_at: d.updated_at, folder: d.folder }, data: d.data })) });

const stored = (text: string): StoredDoc => ({ env: 'e', folder: 'f', key: 'k', created_at: 'c', updated_at: 'u', owner: null, text });

/** Pages spliced from stored payload text (docs/decisions/0235) have the general path's bytes. */
describe('list pages spliced from the stored payload text', () => {
  it('reads each payload back as the JSON.stringify of what was indexed, through JSONB, and splices the same page bytes', async () => {
    const index = new SqliteSearchIndex(`${tempDir()}/delivery.db`);
    try {
      const written = PAYLOADS.map((p, i) => doc(i + 1, p));
      await index.unitOfWork('delivery', '00000000000000000001', async (tx) => {
        for (const d of written) await tx.index(d);
      });
      const query: DeliveryQuery = { sort: [{ field: { scope: 'sys', name: 'created_at' }, descending: false }], limit: 100 };
      const { items, hasMore } = await index.queryStored('e1', 'f1', query);
      expect(hasMore).to.equal(false);
      expect(items.map((d) => d.text)).to.deep.equal(written.map((d) => JSON.stringify(d.data)));
      expect(items.map((d) => parsedDoc(d))).to.deep.equal(written);
      expect(items.map((d) => parsedDoc(d))).to.deep.equal((await index.query('e1', 'f1', query)).items);
      const head = { limit: 100, next: 'http://cms.test/x/?next="é"', previous: null };
      expect(listText(head, items)).to.equal(generalPage(head, written));
      // Backward pages come in sort order as `query`'s do.
      const back = await index.queryStored('e1', 'f1', { ...query, limit: 2, before: { values: [written[4]!.created_at], key: written[4]!.key } });
      expect(back.items.map((d) => d.key)).to.deep.equal([written[2]!.key, written[3]!.key]);
      expect(back.hasMore).to.equal(true);
    } finally {
      await index.close();
    }
  });

  it('falls back to the general path for a payload with a __proto__ key', () => {
    const head = { limit: 20, next: null, previous: null };
    expect(listText(head, [stored('{"__proto__":{"x":1},"a":1}')])).to.equal(undefined);
    expect(listText(head, [stored('{"a":1}'), stored('null')])).to.equal(
      '{"limit":20,"next":null,"previous":null,"results":[{"_sys":{"key":"k","created_at":"c","updated_at":"u","folder":"f"},"data":{"a":1}},{"_sys":{"key":"k","created_at":"c","updated_at":"u","folder":"f"},"data":null}]}',
    );
    expect(listText(head, [])).to.equal('{"limit":20,"next":null,"previous":null,"results":[]}');
  });
});
