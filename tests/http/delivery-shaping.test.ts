import { expect } from 'chai';
import { collectionWithSchema, v1 } from '../support/content.js';
import { deliveryFixture, keysOf, type DeliveryFixture } from '../support/delivery-fixture.js';
import { startTestService, type TestService } from '../support/service.js';

describe('HTTP: delivered documents are localized, selected, truncated and populated', function () {
  this.timeout(30_000);
  let s: TestService;
  let f: DeliveryFixture;
  let a: readonly string[];

  before(async () => {
    s = await startTestService({ PLAN: 'pro' });
    f = await deliveryFixture(s);
    a = f.a;
  });
  after(() => s?.stop());

  const one = (key: string, query = '') => f.get(`site/articles/${key}/${query ? `?${query}` : ''}`);

  it('returns every locale of the environment, a missing translation as null', async () => {
    const r = await one(a[1]!);
    expect(r.status).to.equal(200);
    expect(r.body.data.title).to.deep.equal({ en: 'hello there', de: null, de_AT: null });
  });

  it('keeps only return_locales, and fills gaps from the fallback chain only when asked', async () => {
    expect((await one(a[0]!, 'return_locales=de_AT')).body.data.title).to.deep.equal({ de_AT: null });
    expect((await one(a[0]!, 'return_locales=de_AT,en&fallback_locales=true')).body.data.title).to.deep.equal({ de_AT: 'Hallo Welt', en: 'Hello World' });
    expect((await one(a[1]!, 'return_locales=de_AT&fallback_locales=true')).body.data.title).to.deep.equal({ de_AT: 'hello there' });
    const listed = await f.get('site/articles/?return_locales=de&fallback_locales=true&sort=_sys.created_at');
    expect(listed.body.results.map((r: { data: { title: unknown } }) => r.data.title)).to.deep.equal([
      { de: 'Hallo Welt' },
      { de: 'hello there' },
      { de: 'Andere' },
      { de: 'Zebra' },
    ]);
    const bad = await one(a[0]!, 'fallback_locales=maybe');
    expect(bad.status).to.equal(422);
    expect(bad.body.detail).to.have.property('fallback_locales');
  });

  it('serves localizable values as stored with raw=true', async () => {
    const r = await one(a[0]!, 'raw=true');
    expect(r.body.data.title).to.deep.equal({ en: 'Hello World', de: 'Hallo Welt' });
    expect((await one(a[0]!, 'raw=yes')).status).to.equal(422);
  });

  it('populates every value of a relation field', async () => {
    const r = await one(a[1]!, 'populate=coauthors');
    expect(r.status).to.equal(200);
    const [author, company] = r.body.data.coauthors;
    expect(author).to.deep.include({ data: { name: 'Ann', company: `${f.companies}::${f.company}` } });
    expect(author._sys).to.include({ key: f.author, folder: f.authors });
    expect(company).to.deep.include({ data: { name: 'Acme' } });
    const keysOnly = await f.get(`noco/articles/${a[1]}/?populate=coauthors`);
    expect(keysOnly.body.data.coauthors[1]).to.equal(`${f.companies}::${f.company}`);
  });

  it('selects fields, dot paths included', async () => {
    const r = await one(a[0]!, 'fields=views,meta.color');
    expect(r.body.data).to.deep.equal({ views: 10, meta: { color: 'red' } });
    const listed = await f.get('site/articles/?fields=views&limit=1');
    expect(listed.body.results[0].data).to.deep.equal({ views: 10 });
  });

  it('truncates text fields only when truncate_text is passed', async () => {
    const listed = await f.get('site/articles/?limit=1');
    expect(listed.body.results[0].data.body).to.equal('Lorem ipsum dolor');
    const cut = await f.get('site/articles/?limit=1&truncate_text=5');
    expect(cut.body.results[0].data.body).to.equal('Lorem');
    expect(cut.body.results[0].data.title.en).to.equal('Hello World');
    expect((await one(a[0]!, 'truncate_text=5')).status).to.equal(422);
  });

  it('populates references the reader may see, nested by dot paths', async () => {
    const plain = await one(a[0]!);
    expect(plain.body.data.author).to.equal(`${f.authors}::${f.author}`);
    const populated = await one(a[0]!, 'populate=author');
    expect(populated.body.data.author._sys.key).to.equal(f.author);
    expect(populated.body.data.author.data).to.deep.equal({ name: 'Ann', company: `${f.companies}::${f.company}` });
    const deep = await one(a[0]!, 'populate=author.company');
    expect(deep.body.data.author.data.company).to.deep.include({ data: { name: 'Acme' } });
    expect(deep.body.data.author.data.company._sys.key).to.equal(f.company);
    expect(deep.headers.get('surrogate-key')?.split(' ')).to.include.members([f.articles, a[0], f.authors, f.author, f.companies, f.company]);
    // On an API where the companies collection is not connected the reference stays as it is.
    const other = await f.get(`noco/articles/${a[0]}/?populate=author.company`);
    expect(other.body.data.author.data.company).to.equal(`${f.companies}::${f.company}`);
    const listed = await f.get('site/articles/?populate=author&limit=2');
    expect(listed.body.results[0].data.author._sys.key).to.equal(f.author);
    expect(listed.body.results[1].data).to.not.have.property('author');
  });

  it('serves _schema with the active published schema, its searchable fields and the enabled actions', async () => {
    const r = await f.get('site/articles/_schema');
    expect(r.status).to.equal(200);
    expect(r.body).to.include({ path: '/site/articles', alias: 'articles', content_type: 'document', schema_key: f.articles });
    expect(r.body.actions).to.deep.equal(['get_many', 'get_one']);
    expect(r.body.searchable_fields).to.deep.equal(['title']);
    expect(r.body.non_searchable_fields).to.include.members(['views', 'body', 'meta', 'meta.color']);
    expect(r.body.json_schema.properties.title['x-localizable']).to.equal(true);
    expect(r.body.schema_version_key).to.be.a('string');
    expect((await f.get('keysonly/articles/_schema')).body.actions).to.deep.equal(['get_many']);
  });

  it('answers _schema with 404 schema_not_found while the collection has no published version', async () => {
    const c = await s.api('POST', v1(s, '/collections/tree/'), { name: 'Drafts', alias: 'drafts' });
    expect(c.status).to.equal(201);
    expect((await s.api('POST', v1(s, `/api/${f.siteApi}/collections/`), { folder: c.body.key, allowed_methods: ['get_many', 'get_one'] })).status).to.equal(201);
    const r = await f.get('site/drafts/_schema');
    expect(r.status).to.equal(404);
    expect(r.body.error_code).to.equal('schema_not_found');
    const listed = await f.get('site/drafts/');
    expect(listed.status).to.equal(200);
    expect(listed.body.results).to.deep.equal([]);
    expect((await f.get('site/drafts/?where__title__eq=x')).status).to.equal(422);
  });

  it('serves _schema and filtered lists under a strict-reference parent, scoped to that parent', async () => {
    const courses = await collectionWithSchema(s, 'courses');
    const modules = await collectionWithSchema(s, 'modules', { parent: courses, strict: true });
    const course = await s.api('POST', v1(s, `/collections/${courses}/resources/`), { data: { title: 'C1' } });
    const other = await s.api('POST', v1(s, `/collections/${courses}/resources/`), { data: { title: 'C2' } });
    for (const [owner, views] of [[course.body.key, 1], [course.body.key, 5], [other.body.key, 5]] as const) {
      const r = await s.api('POST', v1(s, `/collections/${modules}/resources/`), { data: { title: 'M', views }, resource_owner: owner });
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
    }
    const created = await s.api('POST', v1(s, '/api/'), { name: 'Learn', prefix: 'learn' });
    expect((await s.api('POST', v1(s, `/api/${created.body.key}/collections/`), { folder: modules, allowed_methods: ['get_many', 'get_one'] })).status).to.equal(201);
    const schema = await f.get(`learn/courses/${course.body.key}/modules/_schema`);
    expect(schema.status, JSON.stringify(schema.body)).to.equal(200);
    expect(schema.body.path).to.equal(`/learn/courses/${course.body.key}/modules`);
    const listed = await f.get(`learn/courses/${course.body.key}/modules/?where__views__gte=2`);
    expect(listed.status).to.equal(200);
    expect(listed.body.results.map((r: { data: { views: number } }) => r.data.views)).to.deep.equal([5]);
    const reserved = await f.get('learn/courses/_schema/modules/');
    expect(reserved.status).to.equal(404);
    const router = await f.get('learn/_router');
    expect(router.body.routes.map((r: { path_template: string }) => r.path_template)).to.include('/courses/{courses_key}/modules/');
  });

  it('never reads a reserved _ name as a key', async () => {
    for (const path of [`site/articles/_other`, 'site/articles/_search']) {
      const r = await f.get(path);
      expect(r.status, path).to.equal(404);
      expect(r.body.error_code, path).to.equal('route_not_found');
    }
    expect((await f.get(`site/articles/${a[0]}/_schema`)).status).to.equal(404);
    expect((await f.get('site/articles/_schema?x=1')).status).to.equal(422);
  });

  it('describes the routes of the API at _router, and hides it when introspection is off', async () => {
    const r = await f.get('site/_router');
    expect(r.status).to.equal(200);
    expect(r.body.api).to.equal('site');
    const articles = r.body.routes.filter((route: { path_template: string }) => route.path_template.startsWith('/articles/'));
    expect(articles.map((route: { method: string; action: string; scope: string }) => `${route.method} ${route.action} ${route.scope}`)).to.deep.equal([
      'GET get_many collection',
      'POST search collection',
      'GET get_one item',
      'GET schema introspection',
    ]);
    const getMany = articles[0];
    expect(getMany).to.include({ path: '/site/articles/', response_ref: '/site/articles/_schema', response_ref_type: 'schema', request_body: null });
    expect(getMany.description).to.equal('Returns a paginated list of resources.');
    expect(getMany.query_params.map((q: { name: string }) => q.name)).to.include.members(['limit', 'next', 'sort', 'where__{field}__{operator}']);
    expect(getMany.response_shape.required_fields).to.deep.equal(['limit', 'next', 'previous', 'results']);
    const companies = r.body.routes.filter((route: { path_template: string }) => route.path_template.startsWith('/companies/'));
    expect(companies.map((route: { action: string }) => route.action)).to.deep.equal(['get_one', 'schema']);

    const off = await s.api('PATCH', v1(s, `/api/${f.siteApi}/`), { router_introspection_enabled: false });
    expect(off.status, JSON.stringify(off.body)).to.equal(200);
    const hidden = await f.get('site/_router');
    expect(hidden.status).to.equal(404);
    await s.api('PATCH', v1(s, `/api/${f.siteApi}/`), { router_introspection_enabled: true });
    expect((await f.get('site/_router')).status).to.equal(200);
  });

  it('sends a strong ETag and the surrogate keys, answers If-None-Match with 304, and changes the ETag with the content', async () => {
    const first = await f.get('site/articles/?limit=2');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).to.match(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers.get('surrogate-key')?.split(' ')).to.deep.equal([s.env, f.siteApi, f.articles, ...keysOf(first)]);
    const again = await f.get('site/articles/?limit=2', { 'if-none-match': etag });
    expect(again.status).to.equal(304);
    expect(again.body).to.equal(null);
    expect(again.headers.get('etag')).to.equal(etag);
    expect((await f.get('site/articles/?limit=2', { 'if-none-match': `W/${etag}` })).status).to.equal(304);
    expect((await f.get('site/articles/?limit=1', { 'if-none-match': etag })).status).to.equal(200);

    const single = await one(a[0]!);
    expect(single.headers.get('surrogate-key')).to.equal(`${s.env} ${f.siteApi} ${f.articles} ${a[0]}`);
    const revision = await s.api('POST', v1(s, `/collections/${f.articles}/resources/${a[0]}/revisions/`), { data: { title: { en: 'Changed' }, views: 10 } });
    expect(revision.status, JSON.stringify(revision.body)).to.equal(201);
    const published = await s.api('POST', v1(s, `/collections/${f.articles}/resources/${a[0]}/revisions/${revision.body.key}/publish/`), {});
    expect(published.status, JSON.stringify(published.body)).to.equal(200);
    const after = await f.get('site/articles/?limit=2', { 'if-none-match': etag });
    expect(after.status).to.equal(200);
    expect(after.headers.get('etag')).to.not.equal(etag);
    expect((await one(a[0]!, '')).headers.get('etag')).to.not.equal(single.headers.get('etag'));
  });
  it('joins collections in _search: documents whose reference reaches a match of the joined tree', async () => {
    const search = async (body: unknown) => {
      const response = await fetch(`${s.delivery}/site/articles/_search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    // a[1] names Ann among its coauthors (a relation); a[0] no longer names her (an earlier test replaced its data).
    const join = { as: { w: 'authors' }, relations: [{ source: '$', target: 'w', source_field: 'coauthors' }] };
    const found = await search({ join, where: { w: { all_of: [{ name__eq: 'Ann' }] } } });
    expect(found.status, JSON.stringify(found.body)).to.equal(200);
    expect(found.body.results.map((r: { _sys: { key: string } }) => r._sys.key)).to.deep.equal([a[1]]);
    const none = await search({ join, where: { w: { all_of: [{ name__eq: 'Nobody' }] } } });
    expect(none.body.results).to.deep.equal([]);
    const combined = await search({ join, where: { $: { all_of: [{ views__gte: 100 }] }, w: { all_of: [{ name__eq: 'Ann' }] } } });
    expect(combined.body.results).to.deep.equal([]);
    const unlisted = await search({ join: { as: { c: 'companies' }, relations: [{ source: '$', target: 'c', source_field: 'author' }] } });
    expect(unlisted.status).to.equal(422);
    expect(unlisted.body.detail).to.have.property('join');
    const tooMany = await search({ join: { as: { a1: 'authors', a2: 'authors', a3: 'authors', a4: 'authors' }, relations: [] } });
    expect(tooMany.status).to.equal(422);
    expect(tooMany.body.detail.join.join(' ')).to.match(/1 to 3/);
    const unknownAlias = await search({ where: { w: { all_of: [{ name__eq: 'Ann' }] } } });
    expect(unknownAlias.status).to.equal(422);
    expect(unknownAlias.body.detail).to.have.property('where');
  });
});
