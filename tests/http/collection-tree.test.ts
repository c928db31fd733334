import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';

type Collection = { key: string; alias: string; path: string; parent: string | null };

describe('collection tree reads over HTTP: lists, subtrees by mode, lookups by key and path', () => {
  let s: TestService;
  const v1 = (path: string): string => `/v1/${s.env}${path}`;
  const k = {} as Record<'blog' | 'articles' | 'drafts' | 'pages' | 'news', string>;
  const create = async (name: string, parent: string | null = null): Promise<string> => {
    const r = await s.api('POST', v1('/collections/tree/'), { name, alias: name, parent });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    return r.body.key;
  };
  const paths = (body: { results: Collection[] }) => body.results.map((c) => c.path);

  // blog → articles → drafts; blog → pages; news
  before(async () => {
    s = await startTestService();
    k.blog = await create('blog');
    k.articles = await create('articles', k.blog);
    k.drafts = await create('drafts', k.articles);
    k.pages = await create('pages', k.blog);
    k.news = await create('news');
  });
  after(async () => s?.stop());

  it('lists the whole tree ordered by path in the envelope, also under folders/', async () => {
    for (const prefix of ['collections', 'folders']) {
      const r = await s.api('GET', v1(`/${prefix}/tree/`));
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ count: 5, next: null, previous: null });
      expect(paths(r.body)).to.deep.equal(['blog', 'blog.articles', 'blog.articles.drafts', 'blog.pages', 'news']);
    }
  });

  it('pages the list with working next and previous URLs', async () => {
    const first = await s.api('GET', v1('/collections/tree/?limit=2'));
    expect(paths(first.body)).to.deep.equal(['blog', 'blog.articles']);
    const second = await s.get(first.body.next, { authorization: `Bearer ${s.token}` });
    expect(paths(second.body)).to.deep.equal(['blog.articles.drafts', 'blog.pages']);
    const back = await s.get(second.body.previous, { authorization: `Bearer ${s.token}` });
    expect(paths(back.body)).to.deep.equal(['blog', 'blog.articles']);
  });

  it('lists the children of a key, children being the default mode', async () => {
    for (const query of [`key=${k.blog}&mode=children`, `key=${k.blog}`]) {
      const r = await s.api('GET', v1(`/collections/tree/?${query}`));
      expect(r.status).to.equal(200);
      expect(r.body.count).to.equal(2);
      expect(paths(r.body)).to.deep.equal(['blog.articles', 'blog.pages']);
    }
    expect(paths((await s.api('GET', v1(`/collections/tree/?key=${k.drafts}`))).body)).to.deep.equal([]);
  });

  it('lists the siblings of a key, without the key itself, for nested and root collections', async () => {
    expect(paths((await s.api('GET', v1(`/collections/tree/?key=${k.articles}&mode=siblings`))).body)).to.deep.equal(['blog.pages']);
    expect(paths((await s.api('GET', v1(`/folders/tree/?key=${k.blog}&mode=siblings`))).body)).to.deep.equal(['news']);
  });

  it('lists all descendants of a key, every level deep', async () => {
    expect(paths((await s.api('GET', v1(`/collections/tree/?key=${k.blog}&mode=descendants`))).body)).to.deep.equal([
      'blog.articles', 'blog.articles.drafts', 'blog.pages',
    ]);
    expect(paths((await s.api('GET', v1(`/collections/tree/?key=${k.articles}&mode=descendants`))).body)).to.deep.equal(['blog.articles.drafts']);
  });

  it('lists the ancestors of a key, root first', async () => {
    expect(paths((await s.api('GET', v1(`/collections/tree/?key=${k.drafts}&mode=ancestors`))).body)).to.deep.equal(['blog', 'blog.articles']);
    expect(paths((await s.api('GET', v1(`/collections/tree/?key=${k.news}&mode=ancestors`))).body)).to.deep.equal([]);
  });

  it('answers 404 collection_not_found for an unknown key in any mode', async () => {
    for (const mode of ['children', 'siblings', 'descendants', 'ancestors']) {
      const r = await s.api('GET', v1(`/collections/tree/?key=nope&mode=${mode}`));
      expect(r.status, mode).to.equal(404);
      expect(r.body.error_code).to.equal('collection_not_found');
    }
  });

  it('refuses bad query parameters with 422 validation_error naming them', async () => {
    for (const [query, name] of [
      [`key=${k.blog}&mode=parents`, 'mode'],
      ['mode=everything', 'mode'],
      [`key=${k.blog}&key=${k.news}`, 'key'],
      ['limit=abc', 'limit'],
      ['limit=0', 'limit'],
      ['offset=-1', 'offset'],
    ]) {
      const r = await s.api('GET', v1(`/collections/tree/?${query}`));
      expect(r.status, query).to.equal(422);
      expect(r.body.error_code).to.equal('validation_error');
      expect(r.body.detail).to.have.property(name as string);
    }
  });

  it('gets one collection by key, under collections/ and folders/', async () => {
    for (const path of [`/collections/tree/collection/?key=${k.drafts}`, `/folders/tree/folder/?key=${k.drafts}`]) {
      const r = await s.api('GET', v1(path));
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ key: k.drafts, alias: 'drafts', path: 'blog.articles.drafts', parent: k.articles, content_type: 'document' });
    }
  });

  it('gets one collection by a dotted or slash-separated path', async () => {
    for (const path of ['blog.articles.drafts', 'blog/articles/drafts', '/blog/articles/drafts/']) {
      const r = await s.api('GET', v1(`/collections/tree/collection/?path=${encodeURIComponent(path)}`));
      expect(r.status, path).to.equal(200);
      expect(r.body.key).to.equal(k.drafts);
    }
    expect((await s.api('GET', v1('/folders/tree/folder/?path=news'))).body.key).to.equal(k.news);
  });

  it('answers 404 collection_not_found for an unknown key or path and 422 without either', async () => {
    for (const query of ['key=nope', 'path=blog.nope', 'path=drafts']) {
      const r = await s.api('GET', v1(`/collections/tree/collection/?${query}`));
      expect(r.status, query).to.equal(404);
      expect(r.body.error_code).to.equal('collection_not_found');
    }
    const neither = await s.api('GET', v1('/collections/tree/collection/'));
    expect(neither.status).to.equal(422);
    expect(neither.body.error_code).to.equal('validation_error');
  });
});
