import { expect } from 'chai';
import { request } from 'node:http';
import { v1 } from '../support/content.js';
import { deliveryFixture, type DeliveryFixture } from '../support/delivery-fixture.js';
import { startTestService, type TestService } from '../support/service.js';

type Raw = { status: number; etag: string | undefined; keys: string | undefined; body: string };

/**
 * A list whose payloads are served as stored is written by splicing each payload's stored JSON
 * text into the page (docs/decisions/0235). `truncate_text` longer than every text, and the
 * express app reached through a Host it does not remember, take the general path (parse,
 * shape, serialize): the bytes and the ETag must be the same.
 */
describe('delivery list pages spliced from stored payload text', () => {
  let s: TestService;
  let f: DeliveryFixture;
  let origin: string;
  let envPath: string;

  function send(path: string): Promise<Raw> {
    return new Promise((resolve, reject) => {
      const req = request(`${origin}${envPath}/${path}`, { headers: { host: 'cms.test' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            etag: res.headers.etag,
            keys: res.headers['surrogate-key'] as string | undefined,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      });
      req.on('error', reject);
      req.end();
    });
  }

  before(async () => {
    s = await startTestService({ PLAN: 'pro' });
    f = await deliveryFixture(s);
    const names = ['é "quoted" \\ back\nslash\t\u0001 \u2028 😀', 'lone \ud800 surrogate', '', '{"__proto__":1}', 'x'.repeat(200)];
    for (const name of names) {
      const r = await s.api('POST', v1(s, `/collections/${f.authors}/resources/?wait=true`), { data: { name } });
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
    }
    const delivery = new URL(s.delivery);
    origin = delivery.origin;
    envPath = delivery.pathname;
  });
  after(async () => {
    await s?.stop();
  });

  const general = (path: string) => `${path}${path.includes('?') ? '&' : '?'}truncate_text=100000`;

  it('answers a collection without localizable or nested fields with the general path bytes, ETag and surrogate keys', async () => {
    for (const path of ['site/authors/', 'site/authors/?limit=2', 'site/authors/?sort=-name&limit=3', 'site/authors/?where__name__ne=x']) {
      const spliced = await send(path);
      const plain = await send(general(path));
      expect(spliced.status, path).to.equal(200);
      expect(plain.status, path).to.equal(200);
      const a = JSON.parse(spliced.body) as { next: string | null; results: unknown[] };
      const b = JSON.parse(plain.body) as { next: string | null; results: unknown[] };
      // The cursor links name the request's own parameters; everything else is byte for byte the same.
      if (a.next === null) {
        expect(spliced.body, path).to.equal(plain.body);
        expect(spliced.etag, path).to.equal(plain.etag);
      } else {
        expect(JSON.stringify(a.results), path).to.equal(JSON.stringify(b.results));
        expect(spliced.body.replace(/,"results".*/s, ''), path).to.equal(plain.body.replace(/,"results".*/s, '').replaceAll('&truncate_text=100000', '').replaceAll('truncate_text=100000&', ''));
      }
      expect(spliced.keys, path).to.equal(plain.keys);
      expect(a.results.length, path).to.be.greaterThan(0);
    }
    const all = JSON.parse((await send('site/authors/')).body) as { results: { data: { name: string } }[] };
    expect(all.results.map((r) => r.data.name)).to.include('lone \ud800 surrogate');
  });

  it('serves raw payloads of a localizable collection spliced, with the general path bytes', async () => {
    const spliced = await send('site/articles/?raw=true');
    const plain = await send('site/articles/?raw=true&truncate_text=100000');
    expect(spliced.status).to.equal(200);
    expect(spliced.body).to.equal(plain.body);
    expect(spliced.etag).to.equal(plain.etag);
    const body = JSON.parse(spliced.body) as { results: { data: { title: unknown } }[] };
    expect(body.results.some((r) => typeof r.data.title === 'object')).to.equal(true);
  });
});
