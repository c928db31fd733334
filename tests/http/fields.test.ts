import { expect } from 'chai';
import { startTestService, type Reply, type TestService } from '../support/service.js';

describe('fields over HTTP', () => {
  let s: TestService;
  let collection: string;
  const v1 = (path: string): string => `/v1/${s.env}${path}`;
  const versions = (schema: string) => v1(schema.startsWith('components/') ? `/${schema}/model/versions/` : `/collections/${schema}/model/versions/`);
  const tree = (schema: string, version: string, query = '') => `${versions(schema)}${version}/schema/tree/${query}`;
  const field = (schema: string, version: string, path: string) => `${versions(schema)}${version}/schema/tree/field/?path=${encodeURIComponent(path)}`;
  const newVersion = async (schema: string): Promise<string> => {
    const r = await s.api('POST', versions(schema), { name: 'v' });
    expect(r.status).to.equal(201);
    return r.body.key;
  };
  const add = async (schema: string, version: string, body: Record<string, unknown>): Promise<Reply> => {
    const r = await s.api('POST', tree(schema, version), body);
    expect(r.status, `${JSON.stringify(body)} → ${JSON.stringify(r.body)}`).to.equal(201);
    return r;
  };
  const publish = (schema: string, version: string) => s.api('POST', `${versions(schema)}${version}/publish/`, {});
  const newCollection = async (alias: string): Promise<string> => (await s.api('POST', v1('/collections/tree/'), { name: alias, alias })).body.key;
  const newComponent = async (name: string): Promise<string> => (await s.api('POST', v1('/components/'), { name })).body.key;
  const expectError = (r: Reply, status: number, code: string, detailKey?: string) => {
    expect(r.status, JSON.stringify(r.body)).to.equal(status);
    expect(r.body.error_code).to.equal(code);
    if (detailKey) expect(r.body.detail, JSON.stringify(r.body.detail)).to.have.property(detailKey);
  };

  before(async () => {
    s = await startTestService();
    collection = await newCollection('articles');
  });
  after(async () => s?.stop());

  describe('create', () => {
    let version: string;
    before(async () => {
      version = await newVersion(collection);
    });

    it('creates a field (201) with every member of the field object', async () => {
      const r = await add(collection, version, { key: 'title', name: 'Title', type: 'string', required: true, meta: { maxLength: 100 } });
      expect(r.body).to.deep.equal({
        key: 'title', name: 'Title', description: '', path: 'title', parent: null, type: 'string', meta: { maxLength: 100 },
        required: true, nullable: false, multiple: false, localizable: false, searchable: false, private: false, vectorizable: false,
      });
    });

    it('creates fields of every type, children under objects and object arrays with a dotted path', async () => {
      const bodies = [
        { key: 'body', type: 'text', vectorizable: true },
        { key: 'views', type: 'integer', meta: { minimum: 0 } },
        { key: 'score', type: 'number' },
        { key: 'on', type: 'boolean' },
        { key: 'day', type: 'date' },
        { key: 'at', type: 'time' },
        { key: 'when', type: 'datetime' },
        { key: 'raw', type: 'json' },
        { key: 'author', type: 'reference', meta: { collections: [collection] } },
        { key: 'related', type: 'relation' },
        { key: 'seo', type: 'object' },
        { key: 'slug', type: 'string', parent: 'seo' },
        { key: 'tags', type: 'array', meta: { items: 'string' } },
        { key: 'blocks', type: 'array', meta: { items: 'object', match: 'one' } },
        { key: 'quote', type: 'text', parent: 'blocks' },
        { key: 'embedding', type: 'vector', meta: { dimensions: 256 } },
      ];
      for (const body of bodies) {
        const r = await add(collection, version, body);
        expect(r.body).to.include({ key: body.key, type: body.type, path: body.parent ? `${body.parent}.${body.key}` : body.key, parent: body.parent ?? null });
      }
    });

    it('refuses definitions that break the field rules with 422 validation_error naming what is wrong, and creates nothing', async () => {
      const before = (await s.api('GET', tree(collection, version, '?path=seo&mode=descendants'))).body.count;
      const bad: [Record<string, unknown>, string][] = [
        [{ key: 'x', type: 'string', meta: { minimum: 1 } }, 'meta.minimum'],
        [{ key: 'x', type: 'array' }, 'meta.items'],
        [{ key: 'x', type: 'array', meta: { items: 'string', match: 'any' } }, 'meta.match'],
        [{ key: 'x', type: 'vector', meta: { dimensions: 100 } }, 'meta.dimensions'],
        [{ key: 'x', type: 'integer', meta: { minimum: 5, maximum: 1 } }, 'meta.minimum'],
        [{ key: 'x', type: 'string', meta: { pattern: '([a-' } }, 'meta.pattern'],
        [{ key: 'x', type: 'string', meta: { maxLength: 1000 } }, 'meta.maxLength'],
        [{ key: 'x', type: 'string', meta: { enum: [1, 2] } }, 'meta.enum'],
        [{ key: 'x', type: 'integer', vectorizable: true }, 'vectorizable'],
        [{ key: 'x', type: 'relation', multiple: true }, 'multiple'],
        [{ key: 'x', type: 'string', parent: 'title' }, 'parent'],
        [{ key: 'x', type: 'string', parent: 'nope' }, 'parent'],
        [{ key: 'x', type: 'string', parent: 'blocks', required: true }, 'required'],
        [{ key: 'x', type: 'string', parent: 'seo', meta: { unknown: 1 } }, 'unknown'],
        [{ key: 'x', type: 'blob' }, 'type'],
        [{ key: 'x.y', type: 'string' }, 'key'],
        [{ type: 'string' }, 'key'],
        [{ key: 'slug', type: 'string', parent: 'seo' }, 'key'],
        [{ key: 'x', type: 'nested', meta: { component: 'c' } }, 'meta.component_version'],
      ];
      for (const [body, detailKey] of bad) expectError(await s.api('POST', tree(collection, version), body), 422, 'validation_error', detailKey);
      expect((await s.api('GET', tree(collection, version, '?path=seo&mode=descendants'))).body.count).to.equal(before);
    });

    it('answers 404 for an unknown version, collection or target collection', async () => {
      expectError(await s.api('POST', tree(collection, 'nope'), { key: 'x', type: 'string' }), 404, 'version_not_found');
      expectError(await s.api('POST', tree('nope', version), { key: 'x', type: 'string' }), 404, 'collection_not_found');
      expectError(await s.api('POST', tree(collection, version), { key: 'x', type: 'reference', meta: { collections: ['nope'] } }), 404, 'collection_not_found', 'meta.collections');
    });

    it('accepts folders in place of collections', async () => {
      const r = await s.api('POST', v1(`/folders/${collection}/model/versions/${version}/schema/tree/`), { key: 'viaFolders', type: 'boolean' });
      expect(r.status).to.equal(201);
      expect((await s.api('GET', v1(`/folders/${collection}/model/versions/${version}/schema/tree/field/?path=viaFolders`))).body.key).to.equal('viaFolders');
    });

    it('refuses fields on a published version with 422 cannot_update_published_model', async () => {
      const published = await newVersion(collection);
      await add(collection, published, { key: 'title', type: 'string' });
      expect((await publish(collection, published)).status).to.equal(200);
      expectError(await s.api('POST', tree(collection, published), { key: 'x', type: 'string' }), 422, 'cannot_update_published_model');
    });
  });

  describe('the tree of a version (3 levels)', () => {
    let version: string;
    const keys = (r: Reply) => r.body.results.map((f: { path: string }) => f.path);
    before(async () => {
      version = await newVersion(collection);
      for (const body of [
        { key: 'a', type: 'object' },
        { key: 'b', type: 'string' },
        { key: 'c', type: 'object', parent: 'a' },
        { key: 'd', type: 'string', parent: 'a' },
        { key: 'e', type: 'string', parent: 'a.c' },
        { key: 'f', type: 'integer', parent: 'a.c' },
      ]) {
        await add(collection, version, body);
      }
    });

    it('lists the top-level fields by default, in the envelope', async () => {
      const r = await s.api('GET', tree(collection, version));
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ count: 2, next: null, previous: null });
      expect(keys(r)).to.deep.equal(['a', 'b']);
    });

    it('answers every mode around a field: children, siblings, descendants, ancestors', async () => {
      const mode = async (path: string, m: string) => keys(await s.api('GET', tree(collection, version, `?path=${path}&mode=${m}`)));
      expect(await mode('a', 'children')).to.deep.equal(['a.c', 'a.d']);
      expect(await mode('a.c', 'children')).to.deep.equal(['a.c.e', 'a.c.f']);
      expect(await mode('a.c', 'siblings')).to.deep.equal(['a.d']);
      expect(await mode('a.c.e', 'siblings')).to.deep.equal(['a.c.f']);
      expect(await mode('b', 'siblings')).to.deep.equal(['a']);
      expect(await mode('a', 'descendants')).to.deep.equal(['a.c', 'a.d', 'a.c.e', 'a.c.f']);
      expect(await mode('a.c.f', 'ancestors')).to.deep.equal(['a', 'a.c']);
      expect(await mode('a', 'ancestors')).to.deep.equal([]);
    });

    it('pages with limit and offset', async () => {
      const r = await s.api('GET', tree(collection, version, '?path=a&mode=descendants&limit=2&offset=1'));
      expect(r.body.count).to.equal(4);
      expect(keys(r)).to.deep.equal(['a.d', 'a.c.e']);
      expect(r.body.next).to.be.a('string');
      expect(r.body.previous).to.be.a('string');
    });

    it('refuses an unknown path or mode with 422 validation_error, and answers 404 for an unknown version', async () => {
      expectError(await s.api('GET', tree(collection, version, '?path=zz')), 422, 'validation_error', 'path');
      expectError(await s.api('GET', tree(collection, version, '?path=a&mode=cousins')), 422, 'validation_error', 'mode');
      expectError(await s.api('GET', tree(collection, 'nope')), 404, 'version_not_found');
    });
  });

  describe('get, update and delete one field', () => {
    let version: string;
    before(async () => {
      version = await newVersion(collection);
      for (const body of [
        { key: 'first', type: 'string' },
        { key: 'box', type: 'object' },
        { key: 'inner', type: 'object', parent: 'box' },
        { key: 'leaf', type: 'string', parent: 'box.inner' },
        { key: 'last', type: 'integer', meta: { minimum: 1, maximum: 9 } },
      ]) {
        await add(collection, version, body);
      }
    });

    it('gets a field by path, and refuses a missing or unknown path with 422 validation_error', async () => {
      const r = await s.api('GET', field(collection, version, 'box.inner.leaf'));
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ key: 'leaf', path: 'box.inner.leaf', parent: 'box.inner' });
      expectError(await s.api('GET', field(collection, version, 'box.nope')), 422, 'validation_error', 'path');
      expectError(await s.api('GET', `${versions(collection)}${version}/schema/tree/field/`), 422, 'validation_error', 'path');
    });

    it('updates what the body names (200) and keeps the rest; meta is replaced as a whole', async () => {
      const r = await s.api('PUT', field(collection, version, 'last'), { name: 'Last', required: true, meta: { maximum: 5 } });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ key: 'last', name: 'Last', type: 'integer', required: true, nullable: false });
      expect(r.body.meta).to.deep.equal({ maximum: 5 });
      expect((await s.api('GET', field(collection, version, 'last'))).body).to.deep.equal(r.body);
    });

    it('changes the type of a field without children', async () => {
      const r = await s.api('PUT', field(collection, version, 'first'), { type: 'text', meta: { maxLength: 5000 } });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ type: 'text' });
    });

    it('renames a field with a new key and moves its subtree, keeping the tree order', async () => {
      const r = await s.api('PUT', field(collection, version, 'box'), { key: 'crate' });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ key: 'crate', path: 'crate', parent: null });
      expect((await s.api('GET', field(collection, version, 'crate.inner.leaf'))).body).to.include({ path: 'crate.inner.leaf', parent: 'crate.inner' });
      expectError(await s.api('GET', field(collection, version, 'box.inner')), 422, 'validation_error');
      const top = await s.api('GET', tree(collection, version));
      expect(top.body.results.map((f: { key: string }) => f.key)).to.deep.equal(['first', 'crate', 'last']);
      const below = await s.api('GET', tree(collection, version, '?path=crate&mode=descendants'));
      expect(below.body.results.map((f: { path: string }) => f.path)).to.deep.equal(['crate.inner', 'crate.inner.leaf']);
    });

    it('refuses bad updates with 422 validation_error and changes nothing', async () => {
      const bad: [string, Record<string, unknown>, string][] = [
        ['crate', { key: 'first' }, 'key'],
        ['crate', { type: 'string' }, 'type'],
        ['crate', { parent: 'first' }, 'parent'],
        ['first', { meta: { minimum: 1 } }, 'meta.minimum'],
        ['first', { required: 'yes' }, 'required'],
        ['last', { meta: { minimum: 9, maximum: 1 } }, 'meta.minimum'],
        ['nope', { name: 'x' }, 'path'],
      ];
      for (const [path, body, key] of bad) expectError(await s.api('PUT', field(collection, version, path), body), 422, 'validation_error', key);
      expect((await s.api('GET', field(collection, version, 'crate'))).body).to.include({ type: 'object', key: 'crate' });
      expectError(await s.api('PUT', `${versions(collection)}${version}/schema/tree/field/`, { name: 'x' }), 422, 'validation_error', 'path');
    });

    it('deletes a field with its subtree (204)', async () => {
      const r = await s.api('DELETE', field(collection, version, 'crate'));
      expect(r.status).to.equal(204);
      expectError(await s.api('GET', field(collection, version, 'crate.inner.leaf')), 422, 'validation_error');
      expect((await s.api('GET', tree(collection, version))).body.results.map((f: { key: string }) => f.key)).to.deep.equal(['first', 'last']);
      expectError(await s.api('DELETE', field(collection, version, 'crate')), 422, 'validation_error', 'path');
    });

    it('answers 404 version_not_found for an unknown version on get, update and delete', async () => {
      expectError(await s.api('GET', field(collection, 'nope', 'first')), 404, 'version_not_found');
      expectError(await s.api('PUT', field(collection, 'nope', 'first'), { name: 'x' }), 404, 'version_not_found');
      expectError(await s.api('DELETE', field(collection, 'nope', 'first')), 404, 'version_not_found');
    });

    it('refuses update and delete on a published version with 422 cannot_update_published_model', async () => {
      expect((await publish(collection, version)).status).to.equal(200);
      expectError(await s.api('PUT', field(collection, version, 'first'), { name: 'x' }), 422, 'cannot_update_published_model');
      expectError(await s.api('DELETE', field(collection, version, 'first')), 422, 'cannot_update_published_model');
      expect((await s.api('GET', field(collection, version, 'first'))).body.name).to.equal('');
    });
  });

  describe('fields of a component, and unknown owners', () => {
    let component: string;
    let version: string;
    before(async () => {
      component = await newComponent('Address');
      version = await newVersion(`components/${component}`);
      await add(`components/${component}`, version, { key: 'street', type: 'string' });
      await add(`components/${component}`, version, { key: 'geo', type: 'object' });
      await add(`components/${component}`, version, { key: 'lat', type: 'number', parent: 'geo' });
    });

    it('lists, gets, updates (200) and deletes (204) the fields of a component version through components/:component/', async () => {
      const schema = `components/${component}`;
      const listed = await s.api('GET', tree(schema, version));
      expect(listed.status).to.equal(200);
      expect(listed.body.results.map((f: { path: string }) => f.path)).to.deep.equal(['street', 'geo']);
      const got = await s.api('GET', field(schema, version, 'geo.lat'));
      expect(got.status).to.equal(200);
      expect(got.body).to.include({ key: 'lat', path: 'geo.lat', parent: 'geo', type: 'number' });
      const updated = await s.api('PUT', field(schema, version, 'street'), { name: 'Street', required: true, meta: { maxLength: 80 } });
      expect(updated.status).to.equal(200);
      expect(updated.body).to.include({ key: 'street', name: 'Street', required: true, type: 'string' });
      expect(updated.body.meta).to.deep.equal({ maxLength: 80 });
      expect((await s.api('GET', field(schema, version, 'street'))).body).to.deep.equal(updated.body);
      const deleted = await s.api('DELETE', field(schema, version, 'geo'));
      expect(deleted.status).to.equal(204);
      expectError(await s.api('GET', field(schema, version, 'geo.lat')), 422, 'validation_error', 'path');
      expect((await s.api('GET', tree(schema, version))).body.results.map((f: { path: string }) => f.path)).to.deep.equal(['street']);
    });

    it('answers 404 collection_not_found for an unknown collection on the tree and on get, update and delete of a field', async () => {
      for (const prefix of ['collections', 'folders']) {
        const base = v1(`/${prefix}/nope/model/versions/${version}/schema/tree/`);
        expectError(await s.api('GET', base), 404, 'collection_not_found');
        expectError(await s.api('POST', base, { key: 'x', type: 'string' }), 404, 'collection_not_found');
        expectError(await s.api('GET', `${base}field/?path=street`), 404, 'collection_not_found');
        expectError(await s.api('PUT', `${base}field/?path=street`, { name: 'x' }), 404, 'collection_not_found');
        expectError(await s.api('DELETE', `${base}field/?path=street`), 404, 'collection_not_found');
      }
    });

    it('answers 404 component_not_found for an unknown component on the tree and on get, update and delete of a field', async () => {
      const schema = 'components/nope';
      expectError(await s.api('GET', tree(schema, version)), 404, 'component_not_found');
      expectError(await s.api('POST', tree(schema, version), { key: 'x', type: 'string' }), 404, 'component_not_found');
      expectError(await s.api('GET', field(schema, version, 'street')), 404, 'component_not_found');
      expectError(await s.api('PUT', field(schema, version, 'street'), { name: 'x' }), 404, 'component_not_found');
      expectError(await s.api('DELETE', field(schema, version, 'street')), 404, 'component_not_found');
      expect((await s.api('GET', field(`components/${component}`, version, 'street'))).body.name).to.equal('Street');
    });
  });

  describe('nested fields (components at a pinned version)', () => {
    let address: string;
    let addressV1: string;
    let draftV: string;
    let version: string;

    before(async () => {
      address = await newComponent('Address');
      addressV1 = await newVersion(`components/${address}`);
      await add(`components/${address}`, addressV1, { key: 'city', type: 'string', required: true });
      expect((await publish(`components/${address}`, addressV1)).status).to.equal(200);
      draftV = await newVersion(`components/${address}`);
      version = await newVersion(collection);
    });

    it('creates a nested field pinned to a published component version (201), auto_update defaulting to false', async () => {
      const r = await add(collection, version, { key: 'home', type: 'nested', meta: { component: address, component_version: addressV1 } });
      expect(r.body.meta).to.deep.equal({ component: address, component_version: addressV1 });
      expect(r.body).to.not.have.property('pin');
    });

    it('refuses an unknown component (404 component_not_found), an unknown version (404 version_not_found) and a draft (422)', async () => {
      expectError(await s.api('POST', tree(collection, version), { key: 'x', type: 'nested', meta: { component: 'nope', component_version: addressV1 } }), 404, 'component_not_found');
      expectError(await s.api('POST', tree(collection, version), { key: 'x', type: 'nested', meta: { component: collection, component_version: addressV1 } }), 404, 'component_not_found');
      expectError(await s.api('POST', tree(collection, version), { key: 'x', type: 'nested', meta: { component: address, component_version: 'nope' } }), 404, 'version_not_found');
      expectError(
        await s.api('POST', tree(collection, version), { key: 'x', type: 'nested', meta: { component: address, component_version: draftV } }),
        422,
        'validation_error',
        'meta.component_version',
      );
    });

    it('publishes with the component bundled under $defs', async () => {
      const r = await publish(collection, version);
      expect(r.status).to.equal(200);
      expect(r.body.json_schema.properties.home).to.deep.equal({ $ref: `#/$defs/${address}.${addressV1}` });
      expect(r.body.json_schema.$defs[`${address}.${addressV1}`]).to.deep.equal({
        type: 'object', properties: { city: { type: 'string', maxLength: 255 } }, required: ['city'], additionalProperties: false,
      });
    });

    it('refuses to publish components nested beyond the inheritance depth of 2 with 422 validation_error', async () => {
      let inner = { key: address, version: addressV1 };
      for (const name of ['Level2', 'Level3']) {
        const component = await newComponent(name);
        const v = await newVersion(`components/${component}`);
        await add(`components/${component}`, v, { key: 'sub', type: 'nested', meta: { component: inner.key, component_version: inner.version } });
        expect((await publish(`components/${component}`, v)).status, name).to.equal(200);
        inner = { key: component, version: v };
      }
      const deep = await newVersion(collection);
      await add(collection, deep, { key: 'deep', type: 'nested', meta: { component: inner.key, component_version: inner.version } });
      expectError(await publish(collection, deep), 422, 'validation_error', 'deep');
      expect((await s.api('GET', `${versions(collection)}${deep}/`)).body.version_number).to.equal(null);
    });

    it('counts the fields of nested components against 1,000 per version: 422 too_many_fields', async function () {
      this.timeout(60_000);
      const wide = await newComponent('Wide');
      const wideV = await newVersion(`components/${wide}`);
      for (let i = 0; i < 100; i++) await add(`components/${wide}`, wideV, { key: `f${i}`, type: 'string' });
      expect((await publish(`components/${wide}`, wideV)).status).to.equal(200);
      const group = await newComponent('Group');
      const groupV = await newVersion(`components/${group}`);
      for (let i = 0; i < 4; i++) await add(`components/${group}`, groupV, { key: `w${i}`, type: 'nested', meta: { component: wide, component_version: wideV } });
      expect((await publish(`components/${group}`, groupV)).status).to.equal(200);
      // Each Group field counts 1 + 4 × (1 + 100) = 405 fields.
      const big = await newVersion(collection);
      await add(collection, big, { key: 'g1', type: 'nested', meta: { component: group, component_version: groupV } });
      await add(collection, big, { key: 'g2', type: 'nested', meta: { component: group, component_version: groupV } });
      const r = await s.api('POST', tree(collection, big), { key: 'g3', type: 'nested', meta: { component: group, component_version: groupV } });
      expectError(r, 422, 'too_many_fields');
      expect(r.body.detail).to.deep.equal({ current: 810, limit: 1000 });
      await add(collection, big, { key: 'w', type: 'nested', meta: { component: wide, component_version: wideV } });
      expectError(await s.api('POST', tree(collection, big), { key: 'w2', type: 'nested', meta: { component: wide, component_version: wideV } }), 422, 'too_many_fields');
      expect((await s.api('GET', tree(collection, big))).body.count).to.equal(3);
    });
  });
});
