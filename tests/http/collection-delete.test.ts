import { expect } from 'chai';
import { join } from 'node:path';
import { SqliteReadStore } from '../../infra/sqlite/read-store.js';
import { SqliteSearchIndex } from '../../infra/sqlite/search-index.js';
import { startTestService, type TestService } from '../support/service.js';

describe('collection changes and delivery, and collection delete, over HTTP', () => {
  let s: TestService;
  const v1 = (path: string): string => `/v1/${s.env}${path}`;
  const item = (key: string) => v1(`/collections/tree/collection/?key=${key}`);
  const at = (prefix: string, path: string) => s.get(`${s.delivery}/${prefix}/${path}`);
  let apiCount = 0;
  const freshApi = async (): Promise<{ key: string; prefix: string }> => {
    apiCount += 1;
    const r = await s.api('POST', v1('/api/'), { name: `API ${apiCount}`, prefix: `site${apiCount}` });
    expect(r.status).to.equal(201);
    return r.body;
  };
  /** A collection with a published one-field schema. */
  const collection = async (alias: string, parent: string | null = null, strict = false): Promise<string> => {
    const c = await s.api('POST', v1('/collections/tree/'), { name: alias, alias, parent, strict_reference: strict });
    expect(c.status, JSON.stringify(c.body)).to.equal(201);
    const v = await s.api('POST', v1(`/collections/${c.body.key}/model/versions/`), {});
    await s.api('POST', v1(`/collections/${c.body.key}/model/versions/${v.body.key}/schema/tree/`), { key: 'title', type: 'string' });
    expect((await s.api('POST', v1(`/collections/${c.body.key}/model/versions/${v.body.key}/publish/`), {})).status).to.equal(200);
    return c.body.key;
  };
  const resource = async (folder: string, title: string, owner: string | null = null): Promise<string> => {
    const r = await s.api('POST', v1(`/collections/${folder}/resources/`), { data: { title }, resource_owner: owner });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    return r.body.key;
  };
  const connect = async (api: string, folder: string) => {
    const r = await s.api('POST', v1(`/api/${api}/collections/`), { folder, allowed_methods: ['get_many', 'get_one'] });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
  };

  before(async () => {
    s = await startTestService();
  });
  after(async () => s?.stop());

  describe('delivery follows alias changes and moves', () => {
    it('serves a connected collection under its new alias path at once; the old path is 404', async () => {
      const books = await collection('books');
      const doc = await resource(books, 'Dune');
      const api = await freshApi();
      await connect(api.key, books);
      expect((await at(api.prefix, 'books/')).status).to.equal(200);
      expect((await s.api('PUT', item(books), { alias: 'novels' })).status).to.equal(200);
      const renamed = await at(api.prefix, 'novels/');
      expect(renamed.status).to.equal(200);
      expect(renamed.body.results.map((r: { _sys: { key: string } }) => r._sys.key)).to.deep.equal([doc]);
      expect((await at(api.prefix, `novels/${doc}/`)).body.data).to.deep.equal({ title: 'Dune' });
      const old = await at(api.prefix, 'books/');
      expect(old.status).to.equal(404);
      expect(old.body.error_code).to.equal('collection_not_found');

      const shelf = await collection('shelf');
      expect((await s.api('PUT', item(books), { parent: shelf })).status).to.equal(200);
      expect((await at(api.prefix, 'shelf/novels/')).status).to.equal(200);
      expect((await at(api.prefix, 'novels/')).status).to.equal(404);
      expect((await s.api('PUT', item(shelf), { alias: 'library' })).status).to.equal(200);
      expect((await at(api.prefix, `library/novels/${doc}/`)).status).to.equal(200);
      expect((await at(api.prefix, 'shelf/novels/')).status).to.equal(404);
    });

    it('renders the nested route of a strict-reference collection with the new aliases', async () => {
      const courses = await collection('courses');
      const modules = await collection('modules', courses, true);
      const c1 = await resource(courses, 'C1');
      const m1 = await resource(modules, 'M1', c1);
      const api = await freshApi();
      await connect(api.key, modules);
      expect((await at(api.prefix, `courses/${c1}/modules/${m1}/`)).status).to.equal(200);
      await s.api('PUT', item(modules), { alias: 'units' });
      await s.api('PUT', item(courses), { alias: 'classes' });
      expect((await at(api.prefix, `classes/${c1}/units/${m1}/`)).body.data).to.deep.equal({ title: 'M1' });
      expect((await at(api.prefix, `courses/${c1}/modules/${m1}/`)).status).to.equal(404);
    });
  });

  describe('delete (DELETE ?key=)', () => {
    const k = {} as Record<'lib' | 'books' | 'chapters' | 'maps' | 'keep', string>;
    const r = {} as Record<'book' | 'chapter' | 'kept', string>;
    let api: { key: string; prefix: string };
    let other: { key: string; prefix: string };

    // lib → books → chapters (strict); lib → maps; keep (untouched root)
    before(async () => {
      k.lib = await collection('lib');
      k.books = await collection('books', k.lib);
      k.chapters = await collection('chapters', k.books, true);
      k.maps = (await s.api('POST', v1('/collections/tree/'), { name: 'maps', alias: 'maps', parent: k.lib })).body.key;
      k.keep = await collection('keep');
      r.book = await resource(k.books, 'Dune');
      r.chapter = await resource(k.chapters, 'One', r.book);
      r.kept = await resource(k.keep, 'Stays');
      api = await freshApi();
      other = await freshApi();
      await connect(api.key, k.chapters);
      await s.api('PUT', v1(`/api/${api.key}/collections/${k.books}/`), { allowed_methods: ['get_many', 'get_one'] });
      await connect(api.key, k.keep);
      await connect(other.key, k.books);
      expect((await at(api.prefix, `lib/books/${r.book}/chapters/${r.chapter}/`)).status).to.equal(200);
      expect((await at(api.prefix, 'lib/books/')).status).to.equal(200);
      expect((await at(other.prefix, `lib/books/${r.book}/`)).status).to.equal(200);
    });

    it('answers 404 collection_not_found for an unknown key and 422 without a key', async () => {
      const unknown = await s.api('DELETE', item('nope'));
      expect(unknown.status).to.equal(404);
      expect(unknown.body.error_code).to.equal('collection_not_found');
      const missing = await s.api('DELETE', v1('/collections/tree/collection/'));
      expect(missing.status).to.equal(422);
      expect(missing.body.error_code).to.equal('validation_error');
    });

    it('deletes the collection with its subtree (204); the rest of the tree stays', async () => {
      const count = (await s.api('GET', v1('/collections/tree/'))).body.count;
      const r204 = await s.api('DELETE', v1(`/folders/tree/folder/?key=${k.lib}`));
      expect(r204.status).to.equal(204);
      expect(r204.body).to.equal(null);
      for (const key of [k.lib, k.books, k.chapters, k.maps]) {
        const got = await s.api('GET', item(key));
        expect(got.status, key).to.equal(404);
        expect(got.body.error_code).to.equal('collection_not_found');
      }
      expect((await s.api('GET', v1('/collections/tree/collection/?path=lib.books'))).status).to.equal(404);
      expect((await s.api('GET', v1('/collections/tree/'))).body.count).to.equal(count - 4);
      expect((await s.api('GET', item(k.keep))).status).to.equal(200);
      expect((await s.api('DELETE', item(k.lib))).status).to.equal(404);
    });

    it('audits one collection:delete per collection, deepest first, with parent_key and the snapshot', async () => {
      const events = (await s.api('GET', v1('/events/?entity_type=collection&event_type=delete&ordering=timestamp'))).body.results;
      expect(events.map((e: { entity_key: string }) => e.entity_key)).to.deep.equal([k.chapters, k.books, k.maps, k.lib]);
      expect(events.map((e: { metadata: unknown }) => e.metadata)).to.deep.equal([
        { parent_key: k.books, snapshot: { name: 'chapters', content_type: 'document', alias: 'chapters', path: 'lib.books.chapters', strict_reference: true } },
        { parent_key: k.lib, snapshot: { name: 'books', content_type: 'document', alias: 'books', path: 'lib.books', strict_reference: false } },
        { parent_key: k.lib, snapshot: { name: 'maps', content_type: 'document', alias: 'maps', path: 'lib.maps', strict_reference: false } },
        { parent_key: null, snapshot: { name: 'lib', content_type: 'document', alias: 'lib', path: 'lib', strict_reference: false } },
      ]);
      const byCollection = await s.api('GET', v1(`/events/?collection_key=${k.books}&event_type=delete`));
      expect(byCollection.body.results.map((e: { entity_type: string }) => e.entity_type)).to.include('collection');
    });

    it('ends its delivery connections in every API, audited as disconnects; other connections stay', async () => {
      const list = (await s.api('GET', v1(`/api/${api.key}/collections/`))).body;
      expect(list.results.map((c: { folder: string }) => c.folder)).to.deep.equal([k.keep]);
      expect((await s.api('GET', v1(`/api/${other.key}/collections/`))).body.count).to.equal(0);
      const gone = await s.api('GET', v1(`/api/${api.key}/collections/${k.books}/`));
      expect(gone.status).to.equal(404);
      expect(gone.body.error_code).to.equal('collection_not_found');
      const disconnects = (await s.api('GET', v1(`/events/?entity_type=api&entity_key=${api.key}&event_type=update`))).body.results
        .filter((e: { metadata: { action: string } }) => e.metadata.action === 'disconnect')
        .map((e: { metadata: { folder_key: string } }) => e.metadata.folder_key)
        .sort();
      // chapters' strict chain is [books]: books and chapters were connected, lib never was.
      expect(disconnects).to.deep.equal([k.books, k.chapters].sort());
      const otherDisconnects = (await s.api('GET', v1(`/events/?api_key=${other.key}&ordering=-timestamp&limit=1`))).body.results[0];
      expect(otherDisconnects.metadata).to.deep.equal({ action: 'disconnect', folder_key: k.books });
    });

    it('stops serving it through delivery; the other collections are still served', async () => {
      for (const path of ['lib/books/', `lib/books/${r.book}/`, `lib/books/${r.book}/chapters/${r.chapter}/`, 'lib/']) {
        const got = await at(api.prefix, path);
        expect(got.status, path).to.equal(404);
        expect(got.body.error_code).to.equal('collection_not_found');
      }
      expect((await at(other.prefix, `lib/books/${r.book}/`)).status).to.equal(404);
      expect((await at(api.prefix, `keep/${r.kept}/`)).status).to.equal(200);
    });

    it('answers 404 collection_not_found on every resource endpoint under a deleted collection', async () => {
      for (const [method, path, body] of [
        ['GET', `/collections/${k.books}/resources/`, undefined],
        ['GET', `/folders/${k.books}/resources/${r.book}/`, undefined],
        ['GET', `/collections/${k.books}/resources/${r.book}/data/`, undefined],
        ['POST', `/collections/${k.books}/resources/`, { data: { title: 'x' } }],
        ['PUT', `/collections/${k.books}/resources/${r.book}/`, { name: 'x' }],
        ['GET', `/collections/${k.books}/model/versions/`, undefined],
        ['POST', `/collections/${k.books}/model/versions/`, {}],
      ] as const) {
        const got = await s.api(method, v1(path), body);
        expect(got.status, `${method} ${path}`).to.equal(404);
        expect(got.body.error_code).to.equal('collection_not_found');
      }
    });

    it('removes the read-model documents and delivery-index documents of its resources', async () => {
      const readStore = new SqliteReadStore(join(s.dataDir, 'read-models.db'));
      const index = new SqliteSearchIndex(join(s.dataDir, 'delivery.db'));
      try {
        for (const folder of [k.books, k.chapters]) {
          expect(await readStore.collection('resources').count({ folder }), 'resources').to.equal(0);
          expect(await readStore.collection('revisions').count({ folder }), 'revisions').to.equal(0);
          expect(await readStore.collection('schema_versions').count({ schema_key: folder }), 'versions').to.equal(0);
          expect(await readStore.collection('api_connections').count({ folder }), 'connections').to.equal(0);
          expect((await index.list(s.env, folder, { limit: 10 })).items).to.deep.equal([]);
        }
        expect(await index.get(s.env, k.books, r.book)).to.equal(null);
        expect(await readStore.collection('resources').count({ folder: k.keep })).to.equal(1);
        expect(await index.get(s.env, k.keep, r.kept)).to.not.equal(null);
      } finally {
        await readStore.close();
        await index.close();
      }
    });

    it('frees the alias for a new collection, which connects and serves under the same path', async () => {
      const lib = await collection('lib');
      expect(lib).to.not.equal(k.lib);
      const books = await collection('books', lib);
      const doc = await resource(books, 'New');
      await connect(api.key, books);
      const served = await at(api.prefix, 'lib/books/');
      expect(served.body.results.map((x: { _sys: { key: string } }) => x._sys.key)).to.deep.equal([doc]);
      expect((await s.api('DELETE', v1(`/api/${api.key}/`))).status).to.equal(204);
    });
  });

  describe('quota after deletes', () => {
    it('counts deleted collections no more: a free environment at 50 can create again after a delete', async () => {
      const fresh = await startTestService({ PLAN: 'free' });
      try {
        const post = (alias: string) => fresh.api('POST', `/v1/${fresh.env}/collections/tree/`, { name: alias, alias });
        const results = await Promise.all(Array.from({ length: 60 }, (_, i) => post(`c${i}`)));
        const statuses = results.map((x) => x.status);
        expect(statuses.filter((st) => st === 201), 'created').to.have.length(50);
        expect(statuses.filter((st) => st === 403), 'refused').to.have.length(10);
        const refused = results.find((x) => x.status === 403);
        expect(refused?.body.error_code).to.equal('plan_limit_exceeded');
        expect(refused?.body.detail).to.deep.equal({ entity: 'collections', current: 50, limit: 50, upgrade_url: '/organizations/plan/' });
        expect((await fresh.api('GET', `/v1/${fresh.env}/collections/tree/`)).body.count).to.equal(50);

        const victim = results.find((x) => x.status === 201)?.body.key as string;
        expect((await fresh.api('DELETE', `/v1/${fresh.env}/collections/tree/collection/?key=${victim}`)).status).to.equal(204);
        expect((await post('again')).status).to.equal(201);
        expect((await post('over')).status).to.equal(403);
        expect((await fresh.api('GET', `/v1/${fresh.env}/collections/tree/`)).body.count).to.equal(50);
      } finally {
        await fresh.stop();
      }
    });
  });
});
