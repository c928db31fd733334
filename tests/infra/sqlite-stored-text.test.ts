import { expect } from 'chai';
import { SqliteSearchIndex } from '../../infra/sqlite/search-index.js';
import { storedDoc } from '../../infra/sqlite/stored-doc.js';
import type { DeliveryDoc } from '../../projections/ports.js';
import { storedText } from '../../projections/stored-text.js';
import { listText } from '../../read-api/delivery/list-text.js';
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
  key: `k${String(n).padStart(3, '0')}`,
  created_at: `2026-01-01T00:00:${String(n).padStart(2, '0')}Z`,
  updated_at: '2026-02-01T00:00:00Z',
  owner: null,
  data,
});

/** The general path's page: every document shaped as a plain item, then serialized (read-api/delivery/list.ts). */
const generalPage = (head: { limit: number; next: string | null; previous: string | null }, docs: readonly DeliveryDoc[]): string =>
  JSON.stringify({ ...head, results: docs.map((d) => ({ _sys: { key: d.key, created_at: d.created_at, updated_at: d.updated_at, folder: d.folder }, data: d.data })) });

/** Pages spliced from stored payload text (docs/decisions/0235) have the general path's bytes. */
describe('list pages spliced from the stored payload text', () => {
  it('carries each payload as the JSON.stringify of what was indexed, through JSONB, and splices the same page bytes', async () => {
    const index = new SqliteSearchIndex(`${tempDir()}/delivery.db`);
    try {
      const written = PAYLOADS.map((p, i) => doc(i + 1, p));
      await index.unitOfWork('delivery', '00000000000000000001', async (tx) => {
        for (const d of written) await tx.index(d);
      });
      const { items } = await index.query('e1', 'f1', { sort: [{ field: { scope: 'sys', name: 'created_at' }, descending: false }], limit: 100 });
      expect(items.map((d) => d.key)).to.deep.equal(written.map((d) => d.key));
      for (const [i, item] of items.entries()) {
        expect(storedText(item)).to.equal(JSON.stringify(written[i]!.data));
        // The document still compares and serializes as a plain one.
        expect(item).to.deep.equal(written[i]);
        expect(JSON.stringify(item)).to.equal(JSON.stringify(written[i]));
      }
      const head = { limit: 100, next: 'http://cms.test/x/?next="é"', previous: null };
      expect(listText(head, items)).to.equal(generalPage(head, written));
    } finally {
      await index.close();
    }
  });

  it('parses a payload only when it is read, once', () => {
    const d = storedDoc({ env: 'e', folder: 'f', key: 'k', created_at: 'c', updated_at: 'u', owner: null, data: '{"a":{"b":1}}' });
    expect(storedText(d)).to.equal('{"a":{"b":1}}');
    expect(d.data).to.equal(d.data);
    expect(d.data).to.deep.equal({ a: { b: 1 } });
  });

  it('falls back to the general path for a document without stored text or with a __proto__ key', () => {
    const head = { limit: 20, next: null, previous: null };
    const plain = doc(1, { title: 'x' });
    expect(listText(head, [plain])).to.equal(undefined);
    const proto = storedDoc({ env: 'e', folder: 'f', key: 'k', created_at: 'c', updated_at: 'u', owner: null, data: '{"__proto__":{"x":1},"a":1}' });
    expect(listText(head, [proto])).to.equal(undefined);
    const ok = storedDoc({ env: 'e', folder: 'f', key: 'k', created_at: 'c', updated_at: 'u', owner: null, data: '{"a":1}' });
    expect(listText(head, [ok])).to.equal('{"limit":20,"next":null,"previous":null,"results":[{"_sys":{"key":"k","created_at":"c","updated_at":"u","folder":"f"},"data":{"a":1}}]}');
    expect(listText(head, [])).to.equal('{"limit":20,"next":null,"previous":null,"results":[]}');
  });
});
