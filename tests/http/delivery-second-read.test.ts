import { expect } from 'chai';
import type { SearchIndex } from '../../projections/ports.js';
import { v1 } from '../support/content.js';
import { deliveryFixture, keysOf, type DeliveryFixture } from '../support/delivery-fixture.js';
import { startTestService, type Reply, type TestService } from '../support/service.js';

/** Every header of an answer but the ones that change per response. */
const headersOf = (r: Reply): Record<string, string> => Object.fromEntries([...r.headers].filter(([name]) => !['date', 'keep-alive', 'x-request-id'].includes(name)));

/**
 * The served cache remembers an address's answer from its second read on (docs/decisions/0266):
 * a list or get-one asked for once (a new query on every request) is answered and forgotten;
 * asked for again, it is computed once more and remembered; from the third read on it is
 * written from the remembered bytes. Every read gets the same bytes and headers.
 */
describe('delivery answers remembered from their second read', () => {
  let s: TestService;
  let f: DeliveryFixture;
  /** Reads of the delivery index by the list and get-one paths. */
  let reads = 0;

  before(async () => {
    s = await startTestService({ PLAN: 'pro' }, undefined, {
      wrapSearchIndex: (inner: SearchIndex) => {
        for (const name of ['get', 'query', 'queryStored'] as const) {
          const method = inner[name] as ((...args: unknown[]) => unknown) | undefined;
          if (!method) continue;
          (inner as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
            reads++;
            return method.apply(inner, args);
          };
        }
        return inner;
      },
    });
    f = await deliveryFixture(s);
  });
  after(async () => s?.stop());

  /** The index reads one request caused, with its answer. */
  async function counted(path: string): Promise<{ reply: Reply; reads: number }> {
    const before = reads;
    const reply = await f.get(path);
    return { reply, reads: reads - before };
  }

  it('computes a list, a filtered list and a get-one on their first two reads and serves the third from memory, with the same bytes and headers', async () => {
    for (const path of ['site/articles/?limit=2', 'site/articles/?where__views__gte=5&limit=3', `site/articles/${f.a[0]}/`]) {
      const first = await counted(path);
      expect(first.reply.status, path).to.equal(200);
      expect(first.reads, `${path}: first read`).to.be.above(0);
      const second = await counted(path);
      expect(second.reads, `${path}: second read`).to.be.above(0);
      for (let i = 0; i < 2; i++) {
        const again = await counted(path);
        expect(again.reads, `${path}: read ${i + 3}`).to.equal(0);
        expect(again.reply.body, path).to.deep.equal(first.reply.body);
        expect(headersOf(again.reply), path).to.deep.equal(headersOf(first.reply));
      }
      expect(headersOf(second.reply), path).to.deep.equal(headersOf(first.reply));
    }
  });

  it('never remembers an address asked for once: each new query is computed', async () => {
    for (let i = 0; i < 5; i++) {
      const { reply, reads: n } = await counted(`site/articles/?where__views__lte=${1000 + i}`);
      expect(reply.status).to.equal(200);
      expect(n).to.be.above(0);
    }
  });

  it('serves a change at once to a list and a get-one remembered before it', async () => {
    const created = await s.api('POST', v1(s, `/collections/${f.articles}/resources/`), { data: { title: { en: 'Soon gone' }, views: 2 } });
    expect(created.status).to.equal(201);
    const list = 'site/articles/?limit=100';
    const one = `site/articles/${created.body.key}/`;
    for (const path of [list, one]) {
      for (let i = 0; i < 2; i++) await f.get(path);
      expect((await counted(path)).reads, `${path} remembered`).to.equal(0);
    }
    expect(keysOf(await f.get(list))).to.include(created.body.key);
    expect((await s.api('DELETE', v1(s, `/collections/${f.articles}/resources/${created.body.key}/`))).status).to.equal(204);
    const gone = await counted(one);
    expect(gone.reply.status).to.equal(404);
    const relisted = await counted(list);
    expect(relisted.reads).to.be.above(0);
    expect(keysOf(relisted.reply)).to.not.include(created.body.key);
  });

  it('writes an answer asked for once as text with the byte length and bytes of the remembered answer, non-ASCII text included', async () => {
    const created = await s.api('POST', v1(s, `/collections/${f.articles}/resources/`), { data: { title: { en: 'Grüße 🌍 \u2028 ✓' }, views: 3 } });
    expect(created.status).to.equal(201);
    for (const path of ['site/articles/?limit=97', `site/articles/${created.body.key}/`]) {
      const raw = async () => {
        const response = await fetch(`${s.delivery}/${path}`);
        return { length: response.headers.get('content-length'), etag: response.headers.get('etag'), bytes: Buffer.from(await response.arrayBuffer()) };
      };
      const once = await raw();
      expect(once.bytes.toString('utf8'), path).to.include('Grüße 🌍');
      expect(Number(once.length), path).to.equal(once.bytes.length);
      await raw();
      expect((await counted(path)).reads, `${path} remembered`).to.equal(0);
      const kept = await raw();
      expect(kept.bytes.equals(once.bytes), path).to.equal(true);
      expect([kept.length, kept.etag], path).to.deep.equal([once.length, once.etag]);
    }
  });
});
