import { expect } from 'chai';
import { request, type IncomingHttpHeaders } from 'node:http';
import { v1 } from '../support/content.js';
import { deliveryFixture, type DeliveryFixture } from '../support/delivery-fixture.js';
import { expressBeside, type ExpressBeside } from '../support/express-beside.js';
import { startTestService, type TestService } from '../support/service.js';

type Raw = { status: number; headers: IncomingHttpHeaders; body: string };

/** One request with the given headers (Host included, so both servers build the same cursor URLs). */
function send(origin: string, path: string, method = 'GET', headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { method, headers: { host: 'cms.test', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The headers that do not change per response. */
const stable = (r: Raw): Record<string, unknown> =>
  Object.fromEntries(Object.entries(r.headers).filter(([name]) => !['date', 'keep-alive', 'connection', 'x-request-id'].includes(name)));

/**
 * A list or get-one read not remembered yet is answered by the delivery front without the express
 * app (docs/decisions/0182, 0245): the same status, headers and bytes as the express app gives for the
 * same request, and every refusal still answered by the express app.
 */
describe('delivery lists and get-one reads answered by the front on their first read', () => {
  let s: TestService;
  let f: DeliveryFixture;
  let beside: ExpressBeside;
  let expressOrigin: string;
  let frontOrigin: string;
  let envPath: string;

  before(async () => {
    s = await startTestService({ PLAN: 'pro' });
    f = await deliveryFixture(s);
    beside = await expressBeside(s);
    ({ expressOrigin, frontOrigin, envPath } = beside);
  });
  after(async () => {
    await beside?.close();
    await s?.stop();
  });

  /** The express app's answer, then the front's first answer of the same request (the express app not entered). */
  async function both(path: string, method = 'GET', headers: Record<string, string> = {}): Promise<{ express: Raw; front: Raw; entered: number }> {
    const express = await send(expressOrigin, `${envPath}/${path}`, method, headers);
    const before = beside.calls();
    const front = await send(frontOrigin, `${envPath}/${path}`, method, headers);
    return { express, front, entered: beside.calls() - before };
  }

  /** Each path's first answer from the front: 200, the express app not entered, the express app's bytes and headers. */
  async function sameAnswers(paths: readonly string[]): Promise<void> {
    for (const path of paths) {
      const { express, front, entered } = await both(path);
      expect(front.status, path).to.equal(200);
      expect(entered, `${path} entered the express app`).to.equal(0);
      expect(front.body, path).to.equal(express.body);
      expect(stable(front), path).to.deep.equal(stable(express));
      expect(front.headers['x-request-id'], path).to.be.a('string');
    }
  }

  it('answers filtered, sorted, paged, localized, populated and narrowed lists with the bytes and headers of the express app', async () => {
    const first = JSON.parse((await send(frontOrigin, `${envPath}/site/articles/?limit=2&sort=views`)).body) as { next: string };
    const cursor = new URL(first.next).search;
    const paths = [
      'site/articles/',
      'site/articles/?limit=1',
      'site/articles/?where__views__gte=5&sort=-views',
      'site/articles/?where__title__icontains=hello&search_locale=de',
      'site/articles/?return_locales=de,en&fields=title,views',
      'site/articles/?populate=author&limit=3',
      'site/articles/?where__tags__includes=tech&where__meta.color__eq=blue',
      `site/articles/${cursor}`,
      'site/authors/?populate=company',
      'keysonly/articles/?limit=2',
    ];
    await sameAnswers(paths);
  });

  it('answers HEAD without a body, If-None-Match with 304, and an allowed Origin with the CORS headers', async () => {
    const head = await both('site/articles/?limit=3&sort=-views', 'HEAD');
    expect(head.front.status).to.equal(200);
    expect(head.front.body).to.equal('');
    expect(head.entered).to.equal(0);
    expect(stable(head.front)).to.deep.equal(stable(head.express));

    const etag = (await send(expressOrigin, `${envPath}/site/articles/?limit=4&sort=views`)).headers.etag ?? '';
    const unchanged = await both('site/articles/?limit=4&sort=views', 'GET', { 'if-none-match': etag });
    expect(unchanged.front.status).to.equal(304);
    expect(unchanged.front.body).to.equal('');
    expect(stable(unchanged.front)).to.deep.equal(stable(unchanged.express));

    expect((await s.api('PUT', v1(s, `/api/${f.siteApi}/`), { name: 'site', prefix: 'site', cors_origins: ['https://app.example'] })).status).to.equal(200);
    const cors = await both('site/articles/?limit=2&where__views__lte=9', 'GET', { origin: 'https://app.example' });
    expect(cors.front.headers['access-control-allow-origin']).to.equal('https://app.example');
    expect(cors.front.headers.vary).to.equal('Origin');
    expect(stable(cors.front)).to.deep.equal(stable(cors.express));
    expect(cors.entered).to.equal(0);
  });

  it('answers get-one reads, localized, populated and narrowed, with the bytes and headers of the express app', async () => {
    const paths = [
      `site/articles/${f.a[0]}/`,
      `site/articles/${f.a[1]}/?return_locales=de`,
      `site/articles/${f.a[1]}/?raw=true`,
      `site/articles/${f.a[2]}/?return_locales=de,en&fields=title,views`,
      `site/articles/${f.a[0]}/?populate=author`,
      `site/authors/${f.author}/?populate=company`,
    ];
    await sameAnswers(paths);
    const head = await both(`site/articles/${f.a[2]}/?fields=views`, 'HEAD');
    expect(head.front.status).to.equal(200);
    expect(head.front.body).to.equal('');
    expect(head.entered).to.equal(0);
    expect(stable(head.front)).to.deep.equal(stable(head.express));
  });

  /** Each path, twice: the express app's refusal (4xx, its error envelope), nothing remembered, so the express app is entered both times. */
  async function sameRefusals(paths: readonly string[]): Promise<void> {
    for (const path of paths) {
      for (let i = 0; i < 2; i++) {
        const { express, front, entered } = await both(path);
        expect(front.status, path).to.be.within(400, 499);
        expect(front.status, path).to.equal(express.status);
        const [mine, theirs] = [JSON.parse(front.body), JSON.parse(express.body)];
        expect(mine.error_code, path).to.be.a('string').and.equal(theirs.error_code);
        expect(mine.detail, path).to.deep.equal(theirs.detail);
        expect(entered, `${path} went to the express app`).to.equal(1);
      }
    }
  }

  it('leaves get-one refusals to the express app: an unknown key, a method not allowed, a bad parameter, another collection', async () => {
    await sameRefusals(['site/articles/nosuchkey/', `keysonly/articles/${f.a[1]}/`, `site/articles/${f.a[0]}/?nope=1`, `site/articles/${f.a[0]}/?limit=3`, `site/authors/${f.a[0]}/`]);
  });

  it('leaves every refusal to the express app, with its error envelope and nothing remembered', async () => {
    await sameRefusals(['site/articles/?nope=1', 'site/articles/?limit=0', 'site/articles/?where__views__gte=abc', 'site/articles/?where__nothing__eq=1', 'site/articles/?next=garbage', 'site/companies/', 'bare/articles/']);
  });

  it('answers a key it knows on a private API, and leaves unknown, wrong and denied keys to the express app', async () => {
    const e = v1(s, '');
    const privateApi = (await s.api('POST', `${e}/api/`, { name: 'Private', prefix: 'private', is_auth_required: true })).body.key;
    expect((await s.api('POST', `${e}/api/${privateApi}/collections/`, { folder: f.articles, allowed_methods: ['get_many', 'get_one'] })).status).to.equal(201);
    const full = (await s.api('POST', `${e}/permissions/delivery-api/api-keys/`, { role: null })).body;
    const role = (await s.api('POST', `${e}/permissions/delivery-api/roles/`, { name: 'authors only' })).body.key;
    await s.api('POST', `${e}/permissions/delivery-api/roles/${role}/permissions/batch/`, [
      { content_type: 'flux-apis', actions: ['read'], all_objects: true },
      { content_type: 'collections', actions: ['read'], all_objects: false, objects: [f.authors] },
    ]);
    const limited = (await s.api('POST', `${e}/permissions/delivery-api/api-keys/`, { role })).body;
    const simple = { authorization: `Simple ${full.public_key}:${full.secret_key}` };
    // The first read with the key: not known yet, so the express app authenticates it.
    const before = beside.calls();
    expect((await send(frontOrigin, `${envPath}/private/articles/?limit=1`, 'GET', simple)).status).to.equal(200);
    expect(beside.calls() - before).to.equal(1);
    const known = await both('private/articles/?limit=2&sort=-views', 'GET', simple);
    expect(known.front.status).to.equal(200);
    expect(known.entered).to.equal(0);
    expect(known.front.body).to.equal(known.express.body);
    expect(stable(known.front)).to.deep.equal(stable(known.express));
    for (const [headers, status] of [
      [{ authorization: `Simple ${full.public_key}:wrong` }, 401],
      [{}, 401],
      [{ authorization: `Simple ${limited.public_key}:${limited.secret_key}` }, 403],
      [{ authorization: `Simple ${limited.public_key}:${limited.secret_key}` }, 403],
    ] as const) {
      const refused = await both('private/articles/?limit=3', 'GET', headers);
      expect(refused.front.status).to.equal(status);
      expect(refused.entered).to.equal(1);
    }
  });

  it('leaves an anonymous read of a private API to the express app', async () => {
    expect((await s.api('PUT', v1(s, `/api/${f.siteApi}/`), { name: 'site', prefix: 'site', is_auth_required: true })).status).to.equal(200);
    const anonymous = await both('site/articles/?limit=2&where__views__gte=1');
    expect(anonymous.front.status).to.equal(401);
    expect(anonymous.entered).to.equal(1);
    expect((await s.api('PUT', v1(s, `/api/${f.siteApi}/`), { name: 'site', prefix: 'site', is_auth_required: false })).status).to.equal(200);
  });
});
