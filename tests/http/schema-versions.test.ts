import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { startTestService, type TestService } from '../support/service.js';

type Version = { key: string; version_number: number | null; name: string; description: string; created_at: string; published_at: string | null; archived_at: string | null; json_schema?: unknown };

describe('schema versions over HTTP: the whole state machine', () => {
  let s: TestService;
  const v1 = (path: string): string => `/v1/${s.env}${path}`;
  let aliases = 0;
  const newCollection = async (extra: Record<string, unknown> = {}): Promise<string> => {
    aliases += 1;
    const r = await s.api('POST', v1('/collections/tree/'), { name: `C${aliases}`, alias: `c${aliases}`, ...extra });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    return r.body.key;
  };
  const newComponent = async (): Promise<string> => {
    const r = await s.api('POST', v1('/components/'), { name: 'Part' });
    expect(r.status).to.equal(201);
    return r.body.key;
  };
  /** `collections/<key>` or `components/<key>`. */
  const versions = (path: string) => v1(`/${path}/model/versions/`);
  const draft = async (path: string, body: Record<string, unknown> = {}, query = ''): Promise<Version> => {
    const r = await s.api('POST', `${versions(path)}${query}`, body);
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    return r.body;
  };
  const addField = async (path: string, version: string, body: Record<string, unknown> = { key: 'title', type: 'string', required: true }) => {
    const r = await s.api('POST', `${versions(path)}${version}/schema/tree/`, body);
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
  };
  const publish = (path: string, version: string, body: unknown = {}) => s.api('POST', `${versions(path)}${version}/publish/`, body);
  /** A draft with one field, published; returns the published version. */
  const published = async (path: string, copyFrom: string | null = null): Promise<Version> => {
    const v = await draft(path, {}, copyFrom ? `?copy_from=${copyFrom}` : '');
    if (!copyFrom) await addField(path, v.key);
    const r = await publish(path, v.key);
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    return r.body;
  };
  const get = (path: string, version: string, query = '') => s.api('GET', `${versions(path)}${version}/${query}`);
  const expectError = (r: { status: number; body: { error_code: string } }, status: number, code: string) => {
    expect(r.status, JSON.stringify(r.body)).to.equal(status);
    expect(r.body.error_code).to.equal(code);
  };

  before(async () => {
    s = await startTestService();
  });
  after(async () => s?.stop());

  describe('create (POST .../model/versions/)', () => {
    it('creates a draft (201) for a collection, through folders/ too, and for a component', async () => {
      const c = await newCollection();
      const r = await s.api('POST', versions(`collections/${c}`), {});
      expect(r.status).to.equal(201);
      expect(r.body).to.deep.equal({
        key: r.body.key, version_number: null, name: '', description: '', created_at: r.body.created_at, published_at: null, archived_at: null, json_schema: null,
      });
      const folders = await s.api('POST', versions(`folders/${c}`), { name: 'via folders' });
      expect(folders.status).to.equal(201);
      expect((await get(`collections/${c}`, folders.body.key)).body.name).to.equal('via folders');
      const component = await newComponent();
      const comp = await s.api('POST', versions(`components/${component}`), { name: 'n'.repeat(255), description: 'd'.repeat(500) });
      expect(comp.status).to.equal(201);
      expect(comp.body).to.include({ name: 'n'.repeat(255), description: 'd'.repeat(500), version_number: null });
    });

    it('refuses invalid bodies with 422 validation_error', async () => {
      const c = await newCollection();
      for (const body of [{ name: 'n'.repeat(256) }, { description: 'd'.repeat(501) }, { name: 5 }, { version_number: 3 }]) {
        const r = await s.api('POST', versions(`collections/${c}`), body);
        expectError(r, 422, 'validation_error');
      }
      expect((await s.api('GET', versions(`collections/${c}`))).body.count).to.equal(0);
    });

    it('copies the fields of copy_from (draft or published) into the new draft', async () => {
      const c = await newCollection();
      const source = await draft(`collections/${c}`);
      await addField(`collections/${c}`, source.key);
      await addField(`collections/${c}`, source.key, { key: 'views', type: 'integer' });
      const copy = await draft(`collections/${c}`, { name: 'copy' }, `?copy_from=${source.key}`);
      const fields = await s.api('GET', `${versions(`collections/${c}`)}${copy.key}/schema/tree/`);
      expect(fields.body.results.map((f: { key: string }) => f.key)).to.deep.equal(['title', 'views']);
      expect((await publish(`collections/${c}`, source.key)).status).to.equal(200);
      const fromPublished = await draft(`collections/${c}`, {}, `?copy_from=${source.key}`);
      expect((await s.api('GET', `${versions(`collections/${c}`)}${fromPublished.key}/schema/tree/`)).body.count).to.equal(2);
    });

    it('answers 404 source_version_not_found for an unknown copy_from or a version of another schema', async () => {
      const c = await newCollection();
      const other = await newCollection();
      const foreign = await draft(`collections/${other}`);
      for (const source of ['nope', foreign.key]) {
        const r = await s.api('POST', `${versions(`collections/${c}`)}?copy_from=${source}`, {});
        expectError(r, 404, 'source_version_not_found');
      }
    });

    it('answers 404 collection_not_found and component_not_found for an unknown owner', async () => {
      expectError(await s.api('POST', versions('collections/nope'), {}), 404, 'collection_not_found');
      expectError(await s.api('POST', versions('folders/nope'), {}), 404, 'collection_not_found');
      expectError(await s.api('POST', versions('components/nope'), {}), 404, 'component_not_found');
    });

    it('answers 422 non_collection_cannot_have_model when the collection form names a component, and 404 component_not_found for the reverse (decision 0024)', async () => {
      const component = await newComponent();
      const c = await newCollection();
      expectError(await s.api('POST', versions(`collections/${component}`), {}), 422, 'non_collection_cannot_have_model');
      expectError(await s.api('GET', versions(`collections/${component}`)), 422, 'non_collection_cannot_have_model');
      expectError(await s.api('POST', versions(`components/${c}`), {}), 404, 'component_not_found');
      expectError(await s.api('GET', versions(`components/${c}`)), 404, 'component_not_found');
      expect((await s.api('GET', versions(`components/${component}`))).body.count, 'nothing was created').to.equal(0);
    });
  });

  describe('a component named in the collection form: 422 non_collection_cannot_have_model (decision 0024)', () => {
    let component: string;
    let version: string;
    before(async () => {
      component = await newComponent();
      version = (await draft(`components/${component}`, { name: 'kept' })).key;
      await addField(`components/${component}`, version);
    });

    it('refuses every version and field route under collections/ and folders/, read and write alike, and changes nothing', async () => {
      for (const prefix of ['collections', 'folders']) {
        const base = versions(`${prefix}/${component}`);
        const field = `${base}${version}/schema/tree/field/?path=title`;
        const requests: [string, string, unknown?][] = [
          ['GET', base],
          ['POST', base, {}],
          ['GET', `${base}${version}/`],
          ['PUT', `${base}${version}/`, { name: 'x' }],
          ['DELETE', `${base}${version}/`],
          ['POST', `${base}${version}/publish/`, {}],
          ['GET', `${base}${version}/schema/tree/`],
          ['POST', `${base}${version}/schema/tree/`, { key: 'other', type: 'string' }],
          ['GET', field],
          ['PUT', field, { name: 'x' }],
          ['DELETE', field],
        ];
        for (const [method, path, body] of requests) {
          const r = await s.api(method, path, body);
          expect(r.status, `${method} ${path}`).to.equal(422);
          expect(r.body).to.deep.equal({ message: r.body.message, error_code: 'non_collection_cannot_have_model', detail: null });
        }
      }
      const kept = await get(`components/${component}`, version);
      expect(kept.body).to.include({ name: 'kept', version_number: null });
      const fields = await s.api('GET', `${versions(`components/${component}`)}${version}/schema/tree/`);
      expect(fields.body.results.map((f: { key: string; name: string }) => [f.key, f.name])).to.deep.equal([['title', '']]);
      expect((await s.api('GET', versions(`components/${component}`))).body.count).to.equal(1);
    });

    it('keeps 404 collection_not_found for a key that is neither a collection nor a component, and for a deleted component', async () => {
      expectError(await s.api('GET', versions('collections/nope')), 404, 'collection_not_found');
      expectError(await s.api('GET', `${versions('folders/nope')}${version}/schema/tree/`), 404, 'collection_not_found');
      const gone = await newComponent();
      expect((await s.api('DELETE', v1(`/components/${gone}/`))).status).to.equal(204);
      expectError(await s.api('GET', versions(`collections/${gone}`)), 404, 'collection_not_found');
      expectError(await s.api('POST', versions(`collections/${gone}`), {}), 404, 'collection_not_found');
    });
  });

  describe('read (GET .../model/versions/ and .../:version/)', () => {
    let c: string;
    let all: Version[];

    before(async () => {
      c = await newCollection();
      const first = await published(`collections/${c}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const second = await draft(`collections/${c}`, { name: 'second' });
      await new Promise((resolve) => setTimeout(resolve, 5));
      const third = await draft(`collections/${c}`, { name: 'third' });
      all = [first, second, third];
    });

    it('lists the versions oldest first in the envelope, with json_schema by default', async () => {
      const r = await s.api('GET', versions(`collections/${c}`));
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ count: 3, next: null, previous: null });
      expect(r.body.results.map((v: Version) => v.key)).to.deep.equal(all.map((v) => v.key));
      expect(r.body.results[0].json_schema).to.deep.include({ type: 'object', required: ['title'] });
      expect(r.body.results[1]).to.have.property('json_schema', null);
    });

    it('orders by -created_at (newest first) and created_at', async () => {
      const newest = await s.api('GET', `${versions(`collections/${c}`)}?ordering=-created_at`);
      expect(newest.body.results.map((v: Version) => v.key)).to.deep.equal(all.map((v) => v.key).reverse());
      const oldest = await s.api('GET', `${versions(`collections/${c}`)}?ordering=created_at`);
      expect(oldest.body.results.map((v: Version) => v.key)).to.deep.equal(all.map((v) => v.key));
    });

    it('leaves json_schema out with include_schema=false, on the list and on one version', async () => {
      const list = await s.api('GET', `${versions(`collections/${c}`)}?include_schema=false`);
      for (const v of list.body.results) expect(v).to.not.have.property('json_schema');
      const one = await get(`collections/${c}`, all[0]?.key ?? '', '?include_schema=false');
      expect(one.status).to.equal(200);
      expect(one.body).to.not.have.property('json_schema');
      expect(one.body).to.include({ key: all[0]?.key, version_number: 1 });
      const withSchema = await get(`collections/${c}`, all[0]?.key ?? '', '?include_schema=true');
      expect(withSchema.body.json_schema).to.deep.include({ type: 'object' });
      expect((await get(`collections/${c}`, all[0]?.key ?? '')).body).to.deep.equal(withSchema.body);
    });

    it('pages with limit and offset', async () => {
      const page = await s.api('GET', `${versions(`collections/${c}`)}?limit=2&offset=1`);
      expect(page.body.results.map((v: Version) => v.key)).to.deep.equal(all.slice(1).map((v) => v.key));
      expect(page.body.previous).to.be.a('string');
    });

    it('refuses invalid include_schema, ordering and limit with 422 validation_error', async () => {
      for (const query of ['?include_schema=yes', '?ordering=name', '?limit=x']) {
        expectError(await s.api('GET', `${versions(`collections/${c}`)}${query}`), 422, 'validation_error');
      }
      expectError(await get(`collections/${c}`, all[0]?.key ?? '', '?include_schema=maybe'), 422, 'validation_error');
    });

    it('answers 404 version_not_found for an unknown version or one of another schema, and 404 for an unknown owner', async () => {
      const other = await newCollection();
      expectError(await get(`collections/${c}`, 'nope'), 404, 'version_not_found');
      expectError(await get(`collections/${other}`, all[0]?.key ?? ''), 404, 'version_not_found');
      expectError(await s.api('GET', versions('collections/nope')), 404, 'collection_not_found');
      expectError(await s.api('GET', versions('components/nope')), 404, 'component_not_found');
    });
  });

  describe('update (PUT .../:version/)', () => {
    it('changes the name and description of a draft (200); a field left out keeps its value', async () => {
      const c = await newCollection();
      const v = await draft(`collections/${c}`, { name: 'old', description: 'about' });
      const r = await s.api('PUT', `${versions(`collections/${c}`)}${v.key}/`, { name: 'new' });
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal({ ...v, name: 'new' });
      const both = await s.api('PUT', `${versions(`collections/${c}`)}${v.key}/`, { name: 'n'.repeat(255), description: 'd'.repeat(500) });
      expect(both.body).to.include({ name: 'n'.repeat(255), description: 'd'.repeat(500) });
      expect((await get(`collections/${c}`, v.key)).body).to.deep.equal(both.body);
    });

    it('updates a component version the same way', async () => {
      const component = await newComponent();
      const v = await draft(`components/${component}`);
      const r = await s.api('PUT', `${versions(`components/${component}`)}${v.key}/`, { description: 'street and city' });
      expect(r.status).to.equal(200);
      expect(r.body.description).to.equal('street and city');
    });

    it('refuses invalid bodies with 422 validation_error and changes nothing', async () => {
      const c = await newCollection();
      const v = await draft(`collections/${c}`, { name: 'kept' });
      for (const body of [{ name: 'n'.repeat(256) }, { description: 'd'.repeat(501) }, { name: null }, { published_at: 'x' }]) {
        expectError(await s.api('PUT', `${versions(`collections/${c}`)}${v.key}/`, body), 422, 'validation_error');
      }
      expect((await get(`collections/${c}`, v.key)).body.name).to.equal('kept');
    });

    it('refuses the published and an archived version with 422 cannot_update_published_model', async () => {
      const c = await newCollection();
      const first = await published(`collections/${c}`);
      expectError(await s.api('PUT', `${versions(`collections/${c}`)}${first.key}/`, { name: 'x' }), 422, 'cannot_update_published_model');
      await published(`collections/${c}`, first.key);
      expect((await get(`collections/${c}`, first.key)).body.archived_at).to.be.a('string');
      expectError(await s.api('PUT', `${versions(`collections/${c}`)}${first.key}/`, { name: 'x' }), 422, 'cannot_update_published_model');
      expect((await get(`collections/${c}`, first.key)).body.name).to.equal('');
    });

    it('answers 404 version_not_found, collection_not_found and component_not_found', async () => {
      const c = await newCollection();
      expectError(await s.api('PUT', `${versions(`collections/${c}`)}nope/`, { name: 'x' }), 404, 'version_not_found');
      expectError(await s.api('PUT', `${versions('collections/nope')}nope/`, { name: 'x' }), 404, 'collection_not_found');
      expectError(await s.api('PUT', `${versions('components/nope')}nope/`, { name: 'x' }), 404, 'component_not_found');
    });
  });

  describe('delete (DELETE .../:version/)', () => {
    it('deletes a draft (204) with its fields', async () => {
      const c = await newCollection();
      const v = await draft(`collections/${c}`);
      await addField(`collections/${c}`, v.key);
      const r = await s.api('DELETE', `${versions(`collections/${c}`)}${v.key}/`);
      expect(r.status).to.equal(204);
      expect(r.body).to.equal(null);
      expectError(await get(`collections/${c}`, v.key), 404, 'version_not_found');
      expectError(await s.api('GET', `${versions(`collections/${c}`)}${v.key}/schema/tree/`), 404, 'version_not_found');
      expect((await s.api('GET', versions(`collections/${c}`))).body.count).to.equal(0);
    });

    it('deletes an archived version (204) and keeps the published one', async () => {
      const c = await newCollection();
      const first = await published(`collections/${c}`);
      const second = await published(`collections/${c}`, first.key);
      expect((await s.api('DELETE', `${versions(`collections/${c}`)}${first.key}/`)).status).to.equal(204);
      const left = await s.api('GET', versions(`collections/${c}`));
      expect(left.body.results.map((v: Version) => v.key)).to.deep.equal([second.key]);
      const third = await published(`collections/${c}`, second.key);
      expect(third.version_number).to.equal(3);
    });

    it('refuses the published version with 422 cannot_delete_published_schema', async () => {
      const c = await newCollection();
      const v = await published(`collections/${c}`);
      expectError(await s.api('DELETE', `${versions(`collections/${c}`)}${v.key}/`), 422, 'cannot_delete_published_schema');
      expect((await get(`collections/${c}`, v.key)).status).to.equal(200);
    });

    it('answers 404 version_not_found (also when deleted twice), collection_not_found and component_not_found', async () => {
      const component = await newComponent();
      const v = await draft(`components/${component}`);
      expect((await s.api('DELETE', `${versions(`components/${component}`)}${v.key}/`)).status).to.equal(204);
      expectError(await s.api('DELETE', `${versions(`components/${component}`)}${v.key}/`), 404, 'version_not_found');
      expectError(await s.api('DELETE', `${versions('collections/nope')}x/`), 404, 'collection_not_found');
      expectError(await s.api('DELETE', `${versions('components/nope')}x/`), 404, 'component_not_found');
    });
  });

  describe('publish (POST .../:version/publish/)', () => {
    it('publishes (200): number, published_at, JSON schema; the next publish archives it', async () => {
      const c = await newCollection();
      const first = await published(`collections/${c}`);
      expect(first).to.include({ version_number: 1, archived_at: null });
      expect(first.published_at).to.be.a('string');
      expect(first.json_schema).to.deep.include({ type: 'object', required: ['title'], additionalProperties: false });
      const second = await published(`collections/${c}`, first.key);
      expect(second.version_number).to.equal(2);
      const archived = (await get(`collections/${c}`, first.key)).body;
      expect(archived).to.include({ version_number: 1, archived_at: second.published_at, published_at: first.published_at });
    });

    it('refuses the published version with 422 version_already_published', async () => {
      const c = await newCollection();
      const v = await published(`collections/${c}`);
      expectError(await publish(`collections/${c}`, v.key), 422, 'version_already_published');
    });

    it('refuses a draft without fields with 422 cannot_publish_empty_schema', async () => {
      const component = await newComponent();
      const v = await draft(`components/${component}`);
      expectError(await publish(`components/${component}`, v.key), 422, 'cannot_publish_empty_schema');
    });

    it('refuses an archived version with 422 cannot_publish_archived_version', async () => {
      const c = await newCollection();
      const first = await published(`collections/${c}`);
      await published(`collections/${c}`, first.key);
      expectError(await publish(`collections/${c}`, first.key), 422, 'cannot_publish_archived_version');
    });

    it('refuses a body with a non-boolean check_valid_drafts or unknown fields with 422 validation_error', async () => {
      const c = await newCollection();
      const v = await draft(`collections/${c}`);
      await addField(`collections/${c}`, v.key);
      for (const body of [{ check_valid_drafts: 'true' }, { check_valid_drafts: 1 }, { check_valid_drafts: null }, { force: true }]) {
        expectError(await publish(`collections/${c}`, v.key, body), 422, 'validation_error');
      }
      expect((await get(`collections/${c}`, v.key)).body.version_number).to.equal(null);
    });

    it('answers 404 version_not_found, collection_not_found and component_not_found', async () => {
      const c = await newCollection();
      expectError(await publish(`collections/${c}`, 'nope'), 404, 'version_not_found');
      expectError(await publish('collections/nope', 'nope'), 404, 'collection_not_found');
      expectError(await publish('components/nope', 'nope'), 404, 'component_not_found');
    });

    describe('check_valid_drafts', () => {
      let c: string;
      let first: Version;

      before(async () => {
        c = await newCollection();
        first = await published(`collections/${c}`);
        const r = await s.api('POST', v1(`/collections/${c}/resources/`), { data: { title: 'Draft' }, mode: 'draft' });
        expect(r.status, JSON.stringify(r.body)).to.equal(201);
        const other = await s.api('POST', v1(`/collections/${c}/resources/`), { data: { title: 'Live' } });
        expect(other.status).to.equal(201);
      });

      it('refuses with 422 valid_drafts_exist while a draft revision the new schema accepts exists', async () => {
        const v = await draft(`collections/${c}`, {}, `?copy_from=${first.key}`);
        const r = await publish(`collections/${c}`, v.key, { check_valid_drafts: true });
        expectError(r, 422, 'valid_drafts_exist');
        expect(r.body.detail).to.deep.equal({ compatible_drafts: 1 });
        expect((await get(`collections/${c}`, v.key)).body.version_number).to.equal(null);
        const without = await publish(`collections/${c}`, v.key, { check_valid_drafts: false });
        expect(without.status).to.equal(200);
        expect(without.body.version_number).to.equal(2);
      });

      it('publishes with check_valid_drafts=true when no draft fits the new schema', async () => {
        const v = await draft(`collections/${c}`, {}, `?copy_from=${first.key}`);
        await addField(`collections/${c}`, v.key, { key: 'body', type: 'text', required: true });
        const r = await publish(`collections/${c}`, v.key, { check_valid_drafts: true });
        expect(r.status, JSON.stringify(r.body)).to.equal(200);
        expect(r.body.version_number).to.equal(3);
      });

      it('publishes a component version with check_valid_drafts=true (components hold no content)', async () => {
        const component = await newComponent();
        const v = await draft(`components/${component}`);
        await addField(`components/${component}`, v.key);
        expect((await publish(`components/${component}`, v.key, { check_valid_drafts: true })).status).to.equal(200);
      });
    });
  });

  describe('auto_remove_schema_versions', () => {
    it('keeps the newest N archived versions: the publish that archives one more deletes the oldest', async () => {
      const c = await newCollection({ auto_remove_schema_versions: 5 });
      const keys: string[] = [];
      let last = await published(`collections/${c}`);
      keys.push(last.key);
      for (let i = 0; i < 5; i++) {
        last = await published(`collections/${c}`, last.key);
        keys.push(last.key);
      }
      const listed = async () => (await s.api('GET', `${versions(`collections/${c}`)}?include_schema=false`)).body.results.map((v: Version) => v.key);
      expect(await listed()).to.deep.equal(keys);
      const keptDraft = await draft(`collections/${c}`, { name: 'never trimmed' });
      last = await published(`collections/${c}`, last.key);
      expect(await listed()).to.deep.equal([...keys.slice(1), keptDraft.key, last.key]);
      expectError(await get(`collections/${c}`, keys[0] ?? ''), 404, 'version_not_found');
      const events = await s.api('GET', v1(`/events/?entity_type=version&event_type=delete&collection_key=${c}`));
      expect(events.body.results.map((e: { entity_key: string; metadata: unknown }) => [e.entity_key, e.metadata])).to.deep.equal([
        [keys[0], { schema_key: null, schema_type: 'collection', folder_key: c, snapshot: { version_number: 1, name: '', description: '' } }],
      ]);
    });

    it('applies a setting changed on the collection at the next publish', async () => {
      const c = await newCollection();
      let last = await published(`collections/${c}`);
      const first = last.key;
      for (let i = 0; i < 6; i++) last = await published(`collections/${c}`, last.key);
      expect((await s.api('GET', versions(`collections/${c}`))).body.count).to.equal(7);
      const put = await s.api('PUT', v1(`/collections/tree/collection/?key=${c}`), { auto_remove_schema_versions: 5 });
      expect(put.status, JSON.stringify(put.body)).to.equal(200);
      expect((await s.api('GET', versions(`collections/${c}`))).body.count).to.equal(7);
      last = await published(`collections/${c}`, last.key);
      const left = (await s.api('GET', `${versions(`collections/${c}`)}?include_schema=false`)).body;
      expect(left.count).to.equal(6);
      expect(left.results.filter((v: Version) => v.archived_at !== null)).to.have.length(5);
      expect(left.results.map((v: Version) => v.version_number)).to.deep.equal([3, 4, 5, 6, 7, 8]);
      expectError(await get(`collections/${c}`, first), 404, 'version_not_found');
    });

    it('keeps every archived version when the setting is null', async () => {
      const c = await newCollection();
      let last = await published(`collections/${c}`);
      for (let i = 0; i < 6; i++) last = await published(`collections/${c}`, last.key);
      expect((await s.api('GET', versions(`collections/${c}`))).body.count).to.equal(7);
    });
  });

  describe('audit', () => {
    const ofVersion = async (key: string) => {
      const r = await s.api('GET', v1(`/events/?entity_type=version&entity_key=${key}&ordering=timestamp`));
      return r.body.results.map((e: { event_type: string; metadata: unknown }) => [e.event_type, e.metadata]);
    };

    it('writes version:create, version:update (rename and publish) and version:delete for a collection', async () => {
      const c = await newCollection();
      const owner = { schema_key: null, schema_type: 'collection', folder_key: c };
      const first = await draft(`collections/${c}`, { name: 'one', description: 'first' });
      await s.api('PUT', `${versions(`collections/${c}`)}${first.key}/`, { name: 'renamed' });
      await addField(`collections/${c}`, first.key);
      await publish(`collections/${c}`, first.key);
      await published(`collections/${c}`, first.key);
      await s.api('DELETE', `${versions(`collections/${c}`)}${first.key}/`);
      expect(await ofVersion(first.key)).to.deep.equal([
        ['create', owner],
        ['update', owner],
        ['update', { action: 'publish', ...owner }],
        ['delete', { ...owner, snapshot: { version_number: 1, name: 'renamed', description: 'first' } }],
      ]);
    });

    it('writes schema_key and schema_type component, folder_key null, for a component', async () => {
      const component = await newComponent();
      const owner = { schema_key: component, schema_type: 'component', folder_key: null };
      const v = await draft(`components/${component}`, { name: 'draft' });
      await s.api('PUT', `${versions(`components/${component}`)}${v.key}/`, { description: 'x' });
      await s.api('DELETE', `${versions(`components/${component}`)}${v.key}/`);
      expect(await ofVersion(v.key)).to.deep.equal([
        ['create', owner],
        ['update', owner],
        ['delete', { ...owner, snapshot: { version_number: null, name: 'draft', description: 'x' } }],
      ]);
      const bySchema = await s.api('GET', v1(`/events/?entity_type=version&schema_key=${component}`));
      expect(bySchema.body.count).to.equal(3);
    });

    it('writes version:update with action publish, schema_key and schema_type component and folder_key null when a component version is published', async () => {
      const component = await newComponent();
      const owner = { schema_key: component, schema_type: 'component', folder_key: null };
      const v = await draft(`components/${component}`);
      await addField(`components/${component}`, v.key);
      expect((await publish(`components/${component}`, v.key)).status).to.equal(200);
      expect(await ofVersion(v.key)).to.deep.equal([
        ['create', owner],
        ['update', { action: 'publish', ...owner }],
      ]);
    });

    it('writes nothing for a refused change or a PUT that changes nothing', async () => {
      const c = await newCollection();
      const v = await published(`collections/${c}`);
      await s.api('PUT', `${versions(`collections/${c}`)}${v.key}/`, { name: 'x' });
      await s.api('DELETE', `${versions(`collections/${c}`)}${v.key}/`);
      await publish(`collections/${c}`, v.key);
      const d = await draft(`collections/${c}`, { name: 'same' });
      await s.api('PUT', `${versions(`collections/${c}`)}${d.key}/`, { name: 'same' });
      expect((await ofVersion(v.key)).map((e: unknown[]) => e[0])).to.deep.equal(['create', 'update']);
      expect((await ofVersion(d.key)).map((e: unknown[]) => e[0])).to.deep.equal(['create']);
    });
  });
});

describe('schema versions over HTTP: the 1,000-version ceiling', () => {
  it('refuses the 1,001st version of a schema with 422 too_many_versions and accepts one again after a delete', async () => {
    // 999 versions come straight from the event store, as 999 POSTs would have written them
    // (a thousand requests take seconds); the 1,000th and the refusal go through HTTP.
    let s = await startTestService();
    const c = (await s.api('POST', `/v1/${s.env}/collections/tree/`, { name: 'Many', alias: 'many' })).body.key as string;
    const base = `/v1/${s.env}/collections/${c}/model/versions/`;
    const first = await s.api('POST', base, {});
    expect(first.status).to.equal(201);
    await s.stop();

    const store = new SqliteEventStore(join(s.dataDir, 'events.db'));
    const [created] = await store.readStream(`schema-${c}`);
    if (!created) throw new Error('no version event');
    const copies = Array.from({ length: 998 }, (_, i) => ({
      id: randomUUID(),
      type: created.type,
      data: { ...(created.data as object), key: `seeded${i}`, created_at: new Date(Date.parse(created.metadata.timestamp) + i + 1).toISOString() },
      metadata: created.metadata,
    }));
    await store.appendToStream(`schema-${c}`, copies, created.revision);
    await store.close();

    s = await startTestService({}, s.dataDir);
    try {
      expect((await s.api('GET', `${base}?limit=1`)).body.count).to.equal(999);
      const thousandth = await s.api('POST', base, {});
      expect(thousandth.status).to.equal(201);
      const refused = await s.api('POST', base, { name: 'one too many' });
      expect(refused.status).to.equal(422);
      expect(refused.body.error_code).to.equal('too_many_versions');
      const copy = await s.api('POST', `${base}?copy_from=${first.body.key}`, {});
      expect(copy.body.error_code).to.equal('too_many_versions');
      expect((await s.api('GET', `${base}?limit=1`)).body.count).to.equal(1000);
      expect((await s.api('DELETE', `${base}seeded0/`)).status).to.equal(204);
      expect((await s.api('POST', base, {})).status).to.equal(201);
    } finally {
      await s.stop();
    }
  });
});
