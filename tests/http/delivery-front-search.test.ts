import { expect } from 'chai';
import { request, type IncomingHttpHeaders } from 'node:http';
import type { SearchIndex } from '../../projections/ports.js';
import { v1 } from '../support/content.js';
import { publish, searchableCollection } from '../support/search.js';
import { unitVector } from '../support/search-fixtures.js';
import { expressBeside, type ExpressBeside } from '../support/express-beside.js';
import { startTestService, type TestService } from '../support/service.js';

type Raw = { status: number; headers: IncomingHttpHeaders; body: string };

/** One POST with the given body bytes and headers (Host included, so both servers build the same cursor URLs). */
function post(origin: string, path: string, body: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { method: 'POST', headers: { host: 'cms.test', 'content-type': 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The headers that do not change per response. */
const stable = (r: Raw): Record<string, unknown> =>
  Object.fromEntries(Object.entries(r.headers).filter(([name]) => !['date', 'keep-alive', 'connection', 'x-request-id'].includes(name)));

/**
 * `POST .../_search` is answered by the delivery front without the express app
 * (docs/decisions/0260): the same status, headers and bytes as the express app gives for the same
 * request, and every refusal still answered by the express app, with the body handed over.
 */
describe('delivery _search answered by the front', () => {
  let s: TestService;
  let index: SearchIndex;
  let beside: ExpressBeside;
  let expressOrigin: string;
  let frontOrigin: string;
  let envPath: string;
  const keys: string[] = [];

  before(async () => {
    s = await startTestService({}, undefined, { wrapSearchIndex: (inner) => (index = inner) });
    expect((await s.api('POST', v1(s, '/locales/'), { name: 'Deutsch', code: 'de' })).status).to.equal(201);
    const notes = await searchableCollection(
      s,
      'notes',
      [
        { key: 'title', type: 'string', searchable: true },
        { key: 'body', type: 'text', searchable: true },
        { key: 'views', type: 'number' },
        { key: 'embedding', type: 'vector', meta: { dimensions: 256 } },
      ],
      'site',
    );
    const guides = await searchableCollection(
      s,
      'guides',
      [
        { key: 'title', type: 'string', searchable: true },
        { key: 'summary', type: 'string', searchable: true, localizable: true },
      ],
      'guides',
    );
    await searchableCollection(s, 'hidden', [{ key: 'title', type: 'string', searchable: true }], 'listonly', ['get_one']);
    const words = ['river stone bridge', 'stone wall garden', 'bridge over the river', 'garden of stone', 'quiet river bank', 'old stone mill'];
    for (const [i, title] of words.entries()) {
      keys.push(await publish(s, notes, { title, body: `${title} and more "quoted" text ü ${i}`, views: i, embedding: unitVector(256, i % 3) }));
    }
    await publish(s, guides, { title: 'stone garden guide', summary: { en: 'a stone garden', de: 'ein Steingarten' } });
    await publish(s, guides, { title: 'river walk guide', summary: { en: 'by the river' } });
    beside = await expressBeside(s);
    ({ expressOrigin, frontOrigin, envPath } = beside);
  });
  after(async () => {
    await beside?.close();
    await s?.stop();
  });

  /** The express app's answer, then the front's answer of the same request, and whether the front entered the express app. */
  async function both(path: string, body: string, headers: Record<string, string> = {}): Promise<{ express: Raw; front: Raw; entered: number }> {
    const express = await post(expressOrigin, `${envPath}/${path}`, body, headers);
    const before = beside.calls();
    const front = await post(frontOrigin, `${envPath}/${path}`, body, headers);
    return { express, front, entered: beside.calls() - before };
  }

  /** Each search answered 200 by the front alone, with the express app's bytes and headers. */
  async function sameAnswers(searches: readonly [string, unknown][], headers: Record<string, string> = {}): Promise<Raw[]> {
    const answers: Raw[] = [];
    for (const [path, body] of searches) {
      const label = `${path} ${JSON.stringify(body)}`;
      const { express, front, entered } = await both(path, JSON.stringify(body), headers);
      expect(front.status, `${label}: ${front.body}`).to.equal(200);
      expect(entered, `${label} entered the express app`).to.equal(0);
      expect(front.body, label).to.equal(express.body);
      expect(stable(front), label).to.deep.equal(stable(express));
      expect(front.headers['x-request-id'], label).to.be.a('string');
      answers.push(front);
    }
    return answers;
  }

  const text = (query: string, more: Record<string, unknown> = {}) => ({ find_text: { query }, ...more });

  it('answers text, phrase, vector, filtered, sorted, narrowed, localized and paged searches with the bytes and headers of the express app', async () => {
    const [first] = await sameAnswers([['site/notes/_search?limit=2', text('stone river')]]);
    const next = (JSON.parse(first!.body) as { next: string }).next;
    expect(next).to.be.a('string');
    const cursor = new URL(next).search;
    const [second] = await sameAnswers([[`site/notes/_search${cursor}`, text('stone river')]]);
    const previous = new URL((JSON.parse(second!.body) as { previous: string }).previous).search;
    await sameAnswers([
      [`site/notes/_search${previous}`, text('stone river')],
      ['site/notes/_search', text('stone')],
      ['site/notes/_search', { find_phrase: { query: 'stone bridge' } }],
      ['site/notes/_search', text('garden', { fields: ['title', 'views'] })],
      ['site/notes/_search', text('stone', { where: { $: { all_of: [{ views__gte: 2 }] } } })],
      ['site/notes/_search', text('stone', { sort: ['-views'], limit: 2, offset: 1 })],
      ['site/notes/_search', { search_mode: 'vector', vector_field_search: { field: 'embedding', query_vector: unitVector(256, 1), top_k: 3 } }],
      ['site/notes/_search', {}],
      ['site/notes/_search?limit=3&raw=true', text('river')],
      ['guides/guides/_search', text('stone river')],
      ['guides/guides/_search?return_locales=de', text('garden')],
      ['guides/guides/_search?raw=true', text('guide')],
      ['guides/guides/_search?search_locale=de', text('steingarten')],
    ]);
  });

  it('writes a page of stored payloads with the bytes JSON.stringify gives the shaped documents', async () => {
    const searches: [string, unknown][] = [
      ['site/notes/_search', text('stone river')],
      ['site/notes/_search?limit=1', text('garden')],
      ['guides/guides/_search?raw=true', text('guide')],
    ];
    const stored = index.docsStoredByKeys!;
    let read = 0;
    Object.assign(index, { docsStoredByKeys: (...args: Parameters<typeof stored>) => (read++, stored.apply(index, args)) });
    const spliced = await sameAnswers(searches);
    // Each search read its page's stored text, on the front and in the express app.
    expect(read).to.equal(2 * searches.length);
    // Without the stored text the general path parses, shapes and stringifies each document.
    Object.assign(index, { docsStoredByKeys: undefined });
    try {
      const general = await sameAnswers(searches);
      expect(spliced.map((r) => r.body)).to.deep.equal(general.map((r) => r.body));
      expect(JSON.parse(spliced[0]!.body).results).to.have.length.above(1);
    } finally {
      delete (index as { docsStoredByKeys?: unknown }).docsStoredByKeys;
    }
  });

  it("sees a collection's new searchable field from the first search after its version is published", async () => {
    const changing = await searchableCollection(s, 'changing', [{ key: 'title', type: 'string', searchable: true }], 'changing');
    await publish(s, changing, { title: 'stone river' });
    const byBody = JSON.stringify({ find_text: { query: 'river', fields: ['body'] } });
    // Refused, and the collection's search fields are now remembered.
    for (let i = 0; i < 2; i++) expect((await post(frontOrigin, `${envPath}/changing/changing/_search`, byBody)).status).to.equal(422);
    const version = await s.api('POST', v1(s, `/collections/${changing}/model/versions/`), {});
    expect((await s.api('POST', v1(s, `/collections/${changing}/model/versions/${version.body.key}/schema/tree/`), { key: 'body', type: 'text', searchable: true })).status).to.equal(201);
    expect((await s.api('POST', v1(s, `/collections/${changing}/model/versions/${version.body.key}/publish/`), {})).status).to.equal(200);
    let status = 0;
    // The delivery index follows the event log in the background: at most a few seconds.
    for (let i = 0; i < 100 && status !== 200; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await post(frontOrigin, `${envPath}/changing/changing/_search`, byBody)).status;
    }
    expect(status).to.equal(200);
  });

  it("gives each answer a request id (the caller's own kept) and counts it in the metrics under the express app's labels", async () => {
    const metric = /http_requests_total\{interface="delivery",method="POST",route="\/:env\/:prefix\/\*segments",status="(\d+)"\} (\d+)/g;
    const counts = async (): Promise<Record<string, number>> =>
      Object.fromEntries([...(await (await fetch(`${s.service.urls.delivery}/metrics`)).text()).matchAll(metric)].map((m) => [m[1]!, Number(m[2])]));
    const before = await counts();
    const entered = beside.calls();
    const body = JSON.stringify(text('stone'));
    const mine = await post(frontOrigin, `${envPath}/site/notes/_search`, body, { 'x-request-id': 'search-7' });
    const fresh = await post(frontOrigin, `${envPath}/site/notes/_search`, body);
    const refused = await post(frontOrigin, `${envPath}/site/notes/_search?nope=1`, body);
    expect([mine.status, fresh.status, refused.status]).to.deep.equal([200, 200, 422]);
    expect(beside.calls() - entered).to.equal(1);
    expect(mine.headers['x-request-id']).to.equal('search-7');
    expect(fresh.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    const after = await counts();
    expect((after['200'] ?? 0) - (before['200'] ?? 0)).to.equal(2);
    expect((after['422'] ?? 0) - (before['422'] ?? 0)).to.equal(1);
  });

  it('answers an allowed Origin with the CORS headers of the express app', async () => {
    const site = (await s.api('GET', v1(s, '/api/'))).body.results.find((a: { prefix: string }) => a.prefix === 'site');
    expect((await s.api('PUT', v1(s, `/api/${site.key}/`), { name: 'site', prefix: 'site', cors_origins: ['https://app.example'] })).status).to.equal(200);
    const [cors] = await sameAnswers([['site/notes/_search?limit=2', text('stone')]], { origin: 'https://app.example' });
    expect(cors!.headers['access-control-allow-origin']).to.equal('https://app.example');
    expect(cors!.headers.vary).to.equal('Origin');
  });

  /** Each request, by the front: the express app's refusal (status, error code and detail of its envelope), the express app entered once. */
  async function sameRefusals(requests: readonly { path: string; body: string; status: number; headers?: Record<string, string> }[]): Promise<void> {
    for (const { path, body, status, headers } of requests) {
      const label = `${path} ${body}`;
      const { express, front, entered } = await both(path, body, headers);
      expect(front.status, `${label}: ${front.body}`).to.equal(status);
      expect(express.status, label).to.equal(status);
      const [mine, theirs] = [JSON.parse(front.body), JSON.parse(express.body)];
      expect(mine.error_code, label).to.be.a('string').and.equal(theirs.error_code);
      expect(mine.detail, label).to.deep.equal(theirs.detail);
      const withoutId = (message: string) => message.replace(/ \(request id: [^)]*\)$/, '');
      expect(withoutId(mine.message), label).to.equal(withoutId(theirs.message));
      expect(entered, `${label} went to the express app`).to.equal(1);
    }
  }

  it('leaves every refusal to the express app, the body handed over, with its status and error envelope', async () => {
    const deep = `${'{"a":'.repeat(120)}1${'}'.repeat(120)}`;
    await sameRefusals([
      { path: 'site/notes/_search', body: '{"find_text": ', status: 422 },
      { path: 'site/notes/_search', body: '"find_text"', status: 422 },
      { path: 'site/notes/_search', body: deep, status: 422 },
      { path: 'site/notes/_search', body: '{"find_text":{"query":"stone"},"limit":1e999}', status: 422 },
      { path: 'site/notes/_search', body: JSON.stringify(text('stone', { fields: ['nothing'] })), status: 422 },
      { path: 'site/notes/_search', body: JSON.stringify(text('stone', { where: { $: { all_of: [{ views__near: 2 }] } } })), status: 422 },
      { path: 'site/notes/_search?nope=1', body: JSON.stringify(text('stone')), status: 422 },
      { path: 'site/notes/_search?next=garbage', body: JSON.stringify(text('stone')), status: 422 },
      { path: 'site/notes/_search?limit=0', body: JSON.stringify(text('stone')), status: 422 },
      { path: 'site/notes/_search', body: 'find_text=stone', status: 415, headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      { path: 'listonly/hidden/_search', body: JSON.stringify(text('stone')), status: 403 },
      { path: 'site/nothing/_search', body: JSON.stringify(text('stone')), status: 404 },
      { path: `site/notes/${keys[0]}/_search`, body: JSON.stringify(text('stone')), status: 404 },
      { path: 'nosuchapi/notes/_search', body: JSON.stringify(text('stone')), status: 404 },
    ]);
  });

  it('reads a body declared with another charset or sent in chunks through the express app, with the same answer', async () => {
    const body = JSON.stringify(text('stone'));
    for (const headers of [{ 'content-type': 'application/json; charset="utf-8"' } as Record<string, string>, { 'content-type': 'application/vnd.api+json' }, { 'transfer-encoding': 'chunked' }]) {
      const { express, front, entered } = await both('site/notes/_search', body, headers);
      expect(front.status, JSON.stringify(headers)).to.equal(200);
      expect(front.body).to.equal(express.body);
      expect(entered).to.equal(1);
    }
  });

  it('answers a key it knows on a private API, and leaves anonymous, unknown and wrong keys to the express app', async () => {
    const e = v1(s, '');
    const privateApi = (await s.api('POST', `${e}/api/`, { name: 'Private', prefix: 'private', is_auth_required: true })).body.key;
    const notes = (await s.api('GET', v1(s, '/api/'))).body.results.find((a: { prefix: string }) => a.prefix === 'site');
    const folder = (await s.api('GET', `${e}/api/${notes.key}/collections/`)).body.results[0].folder;
    expect((await s.api('POST', `${e}/api/${privateApi}/collections/`, { folder, allowed_methods: ['get_many', 'get_one'] })).status).to.equal(201);
    const full = (await s.api('POST', `${e}/permissions/delivery-api/api-keys/`, { role: null })).body;
    const simple = { authorization: `Simple ${full.public_key}:${full.secret_key}` };
    const body = JSON.stringify(text('stone'));
    expect((await both('private/notes/_search', body, simple)).front.status).to.equal(200);
    await sameAnswers([['private/notes/_search?limit=2', text('river')]], simple);
    for (const headers of [{} as Record<string, string>, { authorization: `Simple ${full.public_key}:wrong` }, { authorization: 'Simple nosuchkey:secret' }]) {
      const refused = await both('private/notes/_search', body, headers);
      expect(refused.front.status, JSON.stringify(headers)).to.equal(401);
      expect(JSON.parse(refused.front.body).error_code).to.equal('authentication_required');
      expect(refused.entered).to.equal(1);
    }
  });
});
