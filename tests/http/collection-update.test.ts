import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';

describe('collection update (PUT ?key=) over HTTP', () => {
  let s: TestService;
  const v1 = (path: string): string => `/v1/${s.env}${path}`;
  const k = {} as Record<'blog' | 'articles' | 'drafts' | 'news' | 'courses' | 'modules' | 'lessons', string>;
  const item = (key: string) => v1(`/collections/tree/collection/?key=${key}`);
  const create = async (alias: string, parent: string | null = null, extra: Record<string, unknown> = {}): Promise<string> => {
    const r = await s.api('POST', v1('/collections/tree/'), { name: alias, alias, parent, ...extra });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    return r.body.key;
  };
  const get = async (key: string) => (await s.api('GET', item(key))).body;
  const lastAudit = async (key: string) =>
    (await s.api('GET', v1(`/events/?entity_type=collection&entity_key=${key}&ordering=-timestamp&limit=1`))).body.results[0];

  // blog → articles → drafts; news; courses → modules (strict) → lessons (strict)
  before(async () => {
    s = await startTestService();
    k.blog = await create('blog');
    k.articles = await create('articles', k.blog);
    k.drafts = await create('drafts', k.articles);
    k.news = await create('news');
    k.courses = await create('courses');
    k.modules = await create('modules', k.courses, { strict_reference: true });
    k.lessons = await create('lessons', k.modules, { strict_reference: true });
  });
  after(async () => s?.stop());

  it('audits a nested create as collection:create with its parent_key', async () => {
    const [created] = (await s.api('GET', v1(`/events/?entity_type=collection&entity_key=${k.articles}&event_type=create`))).body.results;
    expect(created).to.include({ event_type: 'create', entity_type: 'collection', entity_key: k.articles });
    expect(created.metadata).to.deep.equal({ parent_key: k.blog });
  });

  it('renames and sets the auto-remove settings (200), keeping the fields left out, audited as collection:update', async () => {
    const before = await get(k.articles);
    const r = await s.api('PUT', item(k.articles), { name: 'Posts', auto_remove_revisions: 20 });
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal({ ...before, name: 'Posts', auto_remove_revisions: 20 });
    expect(await get(k.articles)).to.deep.equal(r.body);
    const audit = await lastAudit(k.articles);
    expect(audit).to.include({ event_type: 'update', entity_type: 'collection', entity_key: k.articles });
    expect(audit.metadata).to.deep.equal({ parent_key: k.blog, previous_parent_key: k.blog });
    const off = await s.api('PUT', v1(`/folders/tree/folder/?key=${k.articles}`), { auto_remove_revisions: null, auto_remove_schema_versions: 5 });
    expect(off.body).to.include({ name: 'Posts', auto_remove_revisions: null, auto_remove_schema_versions: 5 });
  });

  it('re-paths the collection and its whole subtree on an alias change; lookups follow', async () => {
    const r = await s.api('PUT', item(k.blog), { alias: 'journal' });
    expect(r.status).to.equal(200);
    expect(r.body).to.include({ alias: 'journal', path: 'journal' });
    expect((await get(k.articles)).path).to.equal('journal.articles');
    expect((await get(k.drafts)).path).to.equal('journal.articles.drafts');
    expect((await s.api('GET', v1('/collections/tree/collection/?path=journal/articles/drafts'))).body.key).to.equal(k.drafts);
    expect((await s.api('GET', v1('/collections/tree/collection/?path=blog.articles.drafts'))).status).to.equal(404);
    const descendants = await s.api('GET', v1(`/collections/tree/?key=${k.blog}&mode=descendants`));
    expect(descendants.body.results.map((c: { path: string }) => c.path)).to.deep.equal(['journal.articles', 'journal.articles.drafts']);
  });

  it('moves a collection with its subtree under a new parent, audited with parent_key and previous_parent_key', async () => {
    const r = await s.api('PUT', item(k.articles), { parent: k.news });
    expect(r.status).to.equal(200);
    expect(r.body).to.include({ parent: k.news, path: 'news.articles' });
    expect((await get(k.drafts)).path).to.equal('news.articles.drafts');
    expect((await s.api('GET', v1(`/collections/tree/?key=${k.news}`))).body.results.map((c: { key: string }) => c.key)).to.deep.equal([k.articles]);
    expect((await s.api('GET', v1(`/collections/tree/?key=${k.blog}`))).body.count).to.equal(0);
    const audit = await lastAudit(k.articles);
    expect(audit.metadata).to.deep.equal({ parent_key: k.news, previous_parent_key: k.blog });
  });

  it('moves a collection to the root with parent null', async () => {
    const r = await s.api('PUT', item(k.drafts), { parent: null });
    expect(r.body).to.include({ parent: null, path: 'drafts' });
    expect((await lastAudit(k.drafts)).metadata).to.deep.equal({ parent_key: null, previous_parent_key: k.articles });
    expect((await s.api('PUT', item(k.drafts), { parent: k.articles })).body.path).to.equal('news.articles.drafts');
  });

  it('moves a non-strict collection whose strict descendants keep their nesting', async () => {
    const r = await s.api('PUT', item(k.courses), { parent: k.blog });
    expect(r.status).to.equal(200);
    expect((await get(k.lessons)).path).to.equal('journal.courses.modules.lessons');
    expect((await s.api('PUT', item(k.courses), { parent: null })).body.path).to.equal('courses');
  });

  it('answers 404 collection_not_found for an unknown collection or new parent', async () => {
    for (const [key, body] of [['nope', { name: 'x' }], [k.articles, { parent: 'nope' }]] as const) {
      const r = await s.api('PUT', item(key), body);
      expect(r.status).to.equal(404);
      expect(r.body.error_code).to.equal('collection_not_found');
    }
  });

  it('refuses a move into itself or a descendant with 422 validation_error', async () => {
    for (const parent of [k.articles, k.drafts]) {
      const r = await s.api('PUT', item(k.articles), { parent });
      expect(r.status).to.equal(422);
      expect(r.body.error_code).to.equal('validation_error');
      expect(r.body.detail).to.have.property('parent');
    }
  });

  it('refuses an alias used among the (new) siblings with 422 validation_error', async () => {
    const clash = await s.api('PUT', item(k.news), { alias: 'courses' });
    expect(clash.status).to.equal(422);
    expect(clash.body.detail).to.have.property('alias');
    const other = await create('articles', k.blog);
    const moved = await s.api('PUT', item(other), { parent: k.news });
    expect(moved.status).to.equal(422);
    expect(moved.body.error_code).to.equal('validation_error');
    expect((await s.api('PUT', item(other), { parent: k.news, alias: 'archive' })).body.path).to.equal('news.archive');
  });

  it('refuses to change strict_reference with 422 validation_error and accepts it unchanged', async () => {
    const r = await s.api('PUT', item(k.news), { strict_reference: true });
    expect(r.status).to.equal(422);
    expect(r.body.detail).to.have.property('strict_reference');
    expect((await s.api('PUT', item(k.modules), { strict_reference: false })).status).to.equal(422);
    expect((await s.api('PUT', item(k.modules), { strict_reference: true, name: 'Units' })).body).to.include({ name: 'Units', strict_reference: true });
  });

  it('refuses to move a strict-reference collection, or anything under one, with 422 strict_reference_error', async () => {
    for (const [key, parent] of [[k.modules, k.news], [k.lessons, null], [k.news, k.lessons]] as const) {
      const r = await s.api('PUT', item(key), { parent });
      expect(r.status, `${key} → ${parent}`).to.equal(422);
      expect(r.body.error_code).to.equal('strict_reference_error');
    }
    expect((await get(k.modules)).parent).to.equal(k.courses);
  });

  it('refuses bad bodies and a missing key with 422 validation_error and changes nothing', async () => {
    const before = await get(k.news);
    for (const body of [
      {},
      { name: '' },
      { name: 'n'.repeat(256) },
      { alias: 'has space' },
      { alias: '' },
      { parent: 5 },
      { auto_remove_revisions: 4 },
      { auto_remove_schema_versions: 101 },
      { strict_reference: 'true' },
      { content_type: 'any' },
      { path: 'x' },
      { key: 'x' },
    ]) {
      const r = await s.api('PUT', item(k.news), body);
      expect(r.status, JSON.stringify(body)).to.equal(422);
      expect(r.body.error_code).to.equal('validation_error');
    }
    const missing = await s.api('PUT', v1('/collections/tree/collection/'), { name: 'x' });
    expect(missing.status).to.equal(422);
    expect(missing.body.detail).to.have.property('key');
    expect(await get(k.news)).to.deep.equal(before);
  });
});
