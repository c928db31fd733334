import { expect } from 'chai';
import { v1 } from './content.js';
import type { Reply, TestService } from './service.js';

/**
 * Content for the delivery read tests: locales en (default), de, de_AT; companies ← authors ←
 * articles linked by reference fields; an API `site` reading all three, an API `keysonly` with
 * articles on get_many only, an API `bare` with articles connected with [].
 */
export type DeliveryFixture = {
  readonly articles: string;
  readonly authors: string;
  readonly companies: string;
  readonly a: readonly string[];
  readonly author: string;
  readonly company: string;
  readonly siteApi: string;
  /** GET `{delivery}/{path}` with optional headers. */
  get(path: string, headers?: Record<string, string>): Promise<Reply>;
};

type FieldBody = Record<string, unknown>;

async function collection(s: TestService, alias: string, fields: readonly FieldBody[]): Promise<string> {
  const c = await s.api('POST', v1(s, '/collections/tree/'), { name: alias, alias });
  expect(c.status, JSON.stringify(c.body)).to.equal(201);
  const versions = v1(s, `/collections/${c.body.key}/model/versions/`);
  const v = await s.api('POST', versions, {});
  for (const field of fields) {
    const r = await s.api('POST', `${versions}${v.body.key}/schema/tree/`, field);
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
  }
  expect((await s.api('POST', `${versions}${v.body.key}/publish/`, {})).status).to.equal(200);
  return c.body.key;
}

async function resource(s: TestService, folder: string, data: Record<string, unknown>): Promise<string> {
  const r = await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data });
  expect(r.status, JSON.stringify(r.body)).to.equal(201);
  return r.body.key;
}

async function api(s: TestService, prefix: string, connections: readonly [string, readonly string[]][]): Promise<string> {
  const created = await s.api('POST', v1(s, '/api/'), { name: prefix, prefix });
  expect(created.status, JSON.stringify(created.body)).to.equal(201);
  for (const [folder, allowed_methods] of connections) {
    const r = await s.api('POST', v1(s, `/api/${created.body.key}/collections/`), { folder, allowed_methods });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
  }
  return created.body.key;
}

export async function deliveryFixture(s: TestService): Promise<DeliveryFixture> {
  for (const code of ['de', 'de_AT']) expect((await s.api('POST', v1(s, '/locales/'), { code, name: code })).status).to.equal(201);
  const companies = await collection(s, 'companies', [{ key: 'name', type: 'string' }]);
  const authors = await collection(s, 'authors', [
    { key: 'name', type: 'string' },
    { key: 'company', type: 'reference', meta: { collections: [companies] } },
  ]);
  const articles = await collection(s, 'articles', [
    { key: 'title', type: 'string', localizable: true, searchable: true },
    { key: 'views', type: 'integer' },
    { key: 'body', type: 'text' },
    { key: 'tags', type: 'array', meta: { items: 'string' } },
    { key: 'meta', type: 'object' },
    { key: 'color', type: 'string', parent: 'meta' },
    { key: 'featured', type: 'boolean' },
    { key: 'author', type: 'reference', meta: { collections: [authors] } },
    { key: 'coauthors', type: 'relation', meta: { collections: [authors, companies] } },
  ]);
  const company = await resource(s, companies, { name: 'Acme' });
  const author = await resource(s, authors, { name: 'Ann', company: `${companies}::${company}` });
  const a = [
    await resource(s, articles, {
      title: { en: 'Hello World', de: 'Hallo Welt' },
      views: 10,
      body: 'Lorem ipsum dolor',
      tags: ['news', 'tech'],
      meta: { color: 'red' },
      featured: true,
      author: `${authors}::${author}`,
    }),
    await resource(s, articles, {
      title: { en: 'hello there' },
      views: 3,
      tags: ['tech'],
      meta: { color: 'blue' },
      featured: false,
      coauthors: [`${authors}::${author}`, `${companies}::${company}`],
    }),
    await resource(s, articles, { title: { en: 'Other', de: 'Andere' }, views: 7 }),
    await resource(s, articles, { title: { en: 'Zebra' }, views: 0, tags: [] }),
  ];
  const siteApi = await api(s, 'site', [
    [articles, ['get_many', 'get_one']],
    [authors, ['get_many', 'get_one']],
    [companies, ['get_one']],
  ]);
  await api(s, 'keysonly', [[articles, ['get_many']]]);
  await api(s, 'bare', [[articles, []]]);
  await api(s, 'noco', [
    [articles, ['get_many', 'get_one']],
    [authors, ['get_one']],
  ]);
  return { articles, authors, companies, a, author, company, siteApi, get: (path, headers) => s.get(`${s.delivery}/${path}`, headers) };
}

/** The resource keys of a delivery list answer, in order. */
export const keysOf = (r: Reply): string[] => (r.body.results as { _sys: { key: string } }[]).map((item) => item._sys.key);
