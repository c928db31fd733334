import { expect } from 'chai';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { startTestService, type TestService } from '../support/service.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe('walking skeleton over HTTP (embedded stores)', function () {
  let s: TestService;
  let collection: string;
  let version: string;
  let api: string;
  let resource: string;
  const v1 = (path: string): string => `/v1/${s.env}${path}`;

  before(async () => {
    s = await startTestService();
  });
  after(async () => s?.stop());

  describe('bootstrap and authentication', () => {
    it('writes bootstrap.json readable only by its owner with the keys the README names', () => {
      const file = join(s.dataDir, 'bootstrap.json');
      expect(statSync(file).mode & 0o777).to.equal(0o600);
      expect(s.service.bootstrap).to.have.all.keys('organization', 'project', 'environment', 'management_token', 'base_url', 'delivery_url');
      expect(s.service.bootstrap?.delivery_url).to.equal(`${s.service.urls.delivery}/${s.env}`);
    });

    it('answers 401 authentication_failed without credentials and with a bad token', async () => {
      for (const authorization of ['', 'Bearer nope', `Bearer ${s.token}x`, `Basic ${s.token}`]) {
        const r = await s.api('GET', v1('/collections/tree/'), undefined, { authorization });
        expect(r.status, authorization).to.equal(401);
        expect(r.body).to.deep.equal({ message: r.body.message, error_code: 'authentication_failed', detail: null });
      }
    });

    it('answers 404 environment_not_found for an unknown environment', async () => {
      const r = await s.api('GET', '/v1/nope/collections/tree/');
      expect(r.status).to.equal(404);
      expect(r.body.error_code).to.equal('environment_not_found');
    });
  });

  describe('collections', () => {
    it('creates a collection (201) with every field of the object', async () => {
      const r = await s.api('POST', v1('/collections/tree/'), { name: 'Articles', alias: 'articles' });
      expect(r.status).to.equal(201);
      collection = r.body.key;
      expect(r.body).to.deep.equal({
        key: collection, name: 'Articles', alias: 'articles', path: 'articles', parent: null, content_type: 'document',
        strict_reference: false, auto_remove_revisions: null, auto_remove_schema_versions: null, embedding_model: null, embedding_dimension: null,
        created_at: r.body.created_at,
      });
      expect(r.body.created_at).to.match(ISO);
    });

    it('gets it by key and by path, and lists it in the envelope', async () => {
      const byKey = await s.api('GET', v1(`/collections/tree/collection/?key=${collection}`));
      expect(byKey.status).to.equal(200);
      expect(byKey.body.key).to.equal(collection);
      const byPath = await s.api('GET', v1('/collections/tree/collection/?path=articles'));
      expect(byPath.body.key).to.equal(collection);
      const list = await s.api('GET', v1('/collections/tree/'));
      expect(list.status).to.equal(200);
      expect(list.body).to.include({ count: 1, next: null, previous: null });
      expect(list.body.results[0]).to.deep.equal(byKey.body);
    });

    it('nests a child under its parent and lists the children of a key', async () => {
      const child = await s.api('POST', v1('/collections/tree/'), { name: 'Drafts', alias: 'drafts', parent: collection });
      expect(child.status).to.equal(201);
      expect(child.body).to.include({ parent: collection, path: 'articles.drafts' });
      const children = await s.api('GET', v1(`/collections/tree/?key=${collection}&mode=children`));
      expect(children.body.results.map((c: { key: string }) => c.key)).to.deep.equal([child.body.key]);
    });

    it('refuses invalid bodies with 422 validation_error and the failing fields', async () => {
      const missing = await s.api('POST', v1('/collections/tree/'), { alias: 'x' });
      expect(missing.status).to.equal(422);
      expect(missing.body.error_code).to.equal('validation_error');
      expect(missing.body.detail).to.have.property('name');
      const badAlias = await s.api('POST', v1('/collections/tree/'), { name: 'X', alias: 'has space' });
      expect(badAlias.status).to.equal(422);
      expect(badAlias.body.detail).to.have.property('alias');
      const notJson = await s.api('POST', v1('/collections/tree/'), '{"name":');
      expect(notJson.status).to.equal(422);
      expect(notJson.body.error_code).to.equal('validation_error');
    });

    it('refuses a sibling alias twice (422) and an unknown parent (404 collection_not_found)', async () => {
      const dup = await s.api('POST', v1('/collections/tree/'), { name: 'Again', alias: 'articles' });
      expect(dup.status).to.equal(422);
      expect(dup.body.error_code).to.equal('validation_error');
      const orphan = await s.api('POST', v1('/collections/tree/'), { name: 'X', alias: 'x', parent: 'nope' });
      expect(orphan.status).to.equal(404);
      expect(orphan.body.error_code).to.equal('collection_not_found');
      const unknown = await s.api('GET', v1('/collections/tree/collection/?key=nope'));
      expect(unknown.status).to.equal(404);
      expect(unknown.body.error_code).to.equal('collection_not_found');
    });
  });

  describe('schema versions and fields', () => {
    it('creates a draft version (201)', async () => {
      const r = await s.api('POST', v1(`/collections/${collection}/model/versions/`), { name: 'v1', description: 'first' });
      expect(r.status).to.equal(201);
      version = r.body.key;
      expect(r.body).to.deep.equal({
        key: version, version_number: null, name: 'v1', description: 'first', created_at: r.body.created_at,
        published_at: null, archived_at: null, json_schema: null,
      });
    });

    it('refuses to publish an empty draft with cannot_publish_empty_schema', async () => {
      const r = await s.api('POST', v1(`/collections/${collection}/model/versions/${version}/publish/`), {});
      expect(r.status).to.equal(422);
      expect(r.body.error_code).to.equal('cannot_publish_empty_schema');
    });

    it('adds fields of each scalar type (201)', async () => {
      const fields = [
        { key: 'title', name: 'Title', type: 'string', required: true },
        { key: 'body', type: 'text' },
        { key: 'views', type: 'integer', meta: { minimum: 0 } },
        { key: 'rating', type: 'number' },
        { key: 'featured', type: 'boolean' },
      ];
      for (const field of fields) {
        const r = await s.api('POST', v1(`/collections/${collection}/model/versions/${version}/schema/tree/`), field);
        expect(r.status, field.key).to.equal(201);
        expect(r.body).to.include({ key: field.key, path: field.key, type: field.type, parent: null, required: field.required ?? false });
      }
      const list = await s.api('GET', v1(`/collections/${collection}/model/versions/${version}/schema/tree/`));
      expect(list.body.count).to.equal(5);
    });

    it('refuses an unknown field type and a duplicate key with 422', async () => {
      const path = v1(`/collections/${collection}/model/versions/${version}/schema/tree/`);
      expect((await s.api('POST', path, { key: 'x', type: 'blob' })).status).to.equal(422);
      const dup = await s.api('POST', path, { key: 'title', type: 'string' });
      expect(dup.status).to.equal(422);
      expect(dup.body.error_code).to.equal('validation_error');
    });

    it('publishes the version (200) with its generated JSON schema', async () => {
      const r = await s.api('POST', v1(`/collections/${collection}/model/versions/${version}/publish/`), {});
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ key: version, version_number: 1 });
      expect(r.body.published_at).to.match(ISO);
      expect(r.body.json_schema).to.deep.include({ type: 'object', required: ['title'], additionalProperties: false });
      expect(r.body.json_schema.properties.views).to.deep.equal({ type: 'integer', minimum: 0 });
      const noSchema = await s.api('GET', v1(`/collections/${collection}/model/versions/${version}/?include_schema=false`));
      expect(noSchema.body).to.not.have.property('json_schema');
    });

    it('refuses changes to the published version and publishing it again', async () => {
      const field = await s.api('POST', v1(`/collections/${collection}/model/versions/${version}/schema/tree/`), { key: 'late', type: 'string' });
      expect(field.status).to.equal(422);
      expect(field.body.error_code).to.equal('cannot_update_published_model');
      const again = await s.api('POST', v1(`/collections/${collection}/model/versions/${version}/publish/`), {});
      expect(again.body.error_code).to.equal('version_already_published');
    });

    it('answers 404 version_not_found and collection_not_found', async () => {
      const version404 = await s.api('GET', v1(`/collections/${collection}/model/versions/nope/`));
      expect(version404.status).to.equal(404);
      expect(version404.body.error_code).to.equal('version_not_found');
      const collection404 = await s.api('POST', v1('/collections/nope/model/versions/'), {});
      expect(collection404.status).to.equal(404);
      expect(collection404.body.error_code).to.equal('collection_not_found');
    });
  });

  describe('delivery APIs and connections', () => {
    it('creates an API (201) with the defaults of the specification', async () => {
      const r = await s.api('POST', v1('/api/'), { name: 'Site', prefix: 'site' });
      expect(r.status).to.equal(201);
      api = r.body.key;
      expect(r.body).to.deep.equal({
        key: api, name: 'Site', description: '', environment: s.env, prefix: 'site', version: '1', is_auth_required: false,
        mcp_enabled: true, router_introspection_enabled: true, cors_origins: [], created_at: r.body.created_at,
      });
      expect((await s.api('GET', v1(`/api/${api}/`))).body).to.deep.equal(r.body);
      expect((await s.api('GET', v1('/api/'))).body.count).to.equal(1);
    });

    it('refuses a used prefix with 422 api_prefix_exists and bad values with 422 validation_error', async () => {
      const dup = await s.api('POST', v1('/api/'), { name: 'Again', prefix: 'site' });
      expect(dup.status).to.equal(422);
      expect(dup.body.error_code).to.equal('api_prefix_exists');
      for (const body of [{ name: 'X', prefix: 'Upper' }, { name: 'X', prefix: 'x', mcp_enabled: 'true' }, { name: 'X', prefix: 'x', version: '2' }, { name: '', prefix: 'x' }]) {
        const r = await s.api('POST', v1('/api/'), body);
        expect(r.status, JSON.stringify(body)).to.equal(422);
        expect(r.body.error_code).to.equal('validation_error');
      }
      const unknown = await s.api('GET', v1('/api/nope/'));
      expect(unknown.status).to.equal(404);
      expect(unknown.body.error_code).to.equal('api_not_found');
    });

    it('connects the collection (201) with default descriptions', async () => {
      const r = await s.api('POST', v1(`/api/${api}/collections/`), { folder: collection, allowed_methods: ['get_many', 'get_one'] });
      expect(r.status).to.equal(201);
      expect(r.body).to.deep.equal({
        folder: collection, api, allowed_methods: ['get_many', 'get_one'],
        description_get_one: 'Returns one resource by id.', description_get_many: 'Returns a paginated list of resources.',
        description_search: 'Searches resources by filters.', description_schema: 'Returns JSON schema for this resource.',
        mcp_truncate_text: 1000, unscoped_levels: [], unscoped_ancestors: [], created_at: r.body.created_at,
      });
      expect((await s.api('GET', v1(`/api/${api}/collections/${collection}/`))).body).to.deep.equal(r.body);
    });

    it('refuses a second connection, an unknown collection and an unknown method', async () => {
      const again = await s.api('POST', v1(`/api/${api}/collections/`), { folder: collection });
      expect(again.status).to.equal(422);
      expect(again.body.error_code).to.equal('collection_already_connected_to_api');
      const unknown = await s.api('POST', v1(`/api/${api}/collections/`), { folder: 'nope' });
      expect(unknown.status).to.equal(404);
      expect(unknown.body.error_code).to.equal('collection_not_found');
      const method = await s.api('POST', v1(`/api/${api}/collections/`), { folder: collection, allowed_methods: ['delete'] });
      expect(method.status).to.equal(422);
    });
  });

  describe('resources', () => {
    it('creates a published resource with wait=true (201)', async () => {
      const r = await s.api('POST', v1(`/collections/${collection}/resources/`), { data: { title: 'Hello', views: 3 }, name: 'First' });
      expect(r.status).to.equal(201);
      resource = r.body.key;
      expect(r.body).to.deep.equal({
        key: resource, name: 'First', folder: collection, content_type: 'document', external_id: null, created_at: r.body.created_at,
        resource_owner: null, current_revision: r.body.current_revision, vectors_size: 0,
      });
      expect(r.body.current_revision).to.be.a('string');
      const got = await s.api('GET', v1(`/collections/${collection}/resources/${resource}/`));
      expect(got.body).to.deep.equal(r.body);
      const data = await s.api('GET', v1(`/collections/${collection}/resources/${resource}/data/`));
      expect(data.status).to.equal(200);
      expect(data.body).to.deep.equal({ title: 'Hello', views: 3 });
    });

    it('refuses data that fails the schema with 422 and writes nothing', async () => {
      const before = (await s.api('GET', v1(`/collections/${collection}/resources/`))).body.count;
      for (const data of [{ title: 5 }, {}, { title: 'x', unknown: 1 }, { title: 'x', views: -1 }]) {
        const r = await s.api('POST', v1(`/collections/${collection}/resources/`), { data });
        expect(r.status, JSON.stringify(data)).to.equal(422);
        expect(r.body.error_code).to.equal('validation_error');
      }
      const bad = await s.api('POST', v1(`/collections/${collection}/resources/`), { data: 'text' });
      expect(bad.status).to.equal(422);
      expect((await s.api('GET', v1(`/collections/${collection}/resources/`))).body.count).to.equal(before);
    });

    it('refuses a payload over 1 MB with 422 json_size_exceeded, validate_data=false with mode=instant and an empty or over-long name with 422 validation_error', async () => {
      const resources = v1(`/collections/${collection}/resources/`);
      const before = (await s.api('GET', resources)).body.count;
      const big = await s.api('POST', resources, { data: { title: 'x'.repeat(1024 * 1024) } });
      expect(big.status).to.equal(422);
      expect(big.body.error_code).to.equal('json_size_exceeded');
      const huge = await s.api('POST', resources, { data: { title: 'x'.repeat(9 * 1024 * 1024) } });
      expect(huge.status, 'over the body parser limit').to.equal(422);
      expect(huge.body.error_code).to.equal('json_size_exceeded');
      for (const body of [{ validate_data: false, mode: 'instant' }, { validate_data: false }]) {
        const r = await s.api('POST', resources, { data: { title: 'Unchecked' }, ...body });
        expect(r.status, JSON.stringify(body)).to.equal(422);
        expect(r.body.error_code).to.equal('validation_error');
        expect(r.body.detail).to.have.property('validate_data');
      }
      for (const name of ['', 'n'.repeat(256)]) {
        const r = await s.api('POST', resources, { data: { title: 'Named' }, name });
        expect(r.status, `name of ${name.length}`).to.equal(422);
        expect(r.body.error_code).to.equal('validation_error');
        expect(r.body.detail).to.have.property('name');
      }
      expect((await s.api('GET', resources)).body.count).to.equal(before);
    });

    it('accepts wait=false with 202 and the resource shows up', async () => {
      const r = await s.api('POST', v1(`/collections/${collection}/resources/?wait=false`), { data: { title: 'Queued' } });
      expect(r.status).to.equal(202);
      expect(r.body).to.include({ folder: collection, content_type: 'document' });
      let got = await s.api('GET', v1(`/collections/${collection}/resources/${r.body.key}/`));
      for (let i = 0; got.status === 404 && i < 50; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        got = await s.api('GET', v1(`/collections/${collection}/resources/${r.body.key}/`));
      }
      expect(got.status).to.equal(200);
      expect(got.body.key).to.equal(r.body.key);
    });

    it('keeps a draft unpublished: data/ answers 204', async () => {
      const r = await s.api('POST', v1(`/collections/${collection}/resources/`), { data: { title: 'Draft' }, mode: 'draft' });
      expect(r.status).to.equal(201);
      expect(r.body.current_revision).to.equal(null);
      const data = await s.api('GET', v1(`/collections/${collection}/resources/${r.body.key}/data/`));
      expect(data.status).to.equal(204);
    });

    it('lists resources in pages with working next and previous URLs', async () => {
      const first = await s.api('GET', v1(`/collections/${collection}/resources/?limit=2`));
      expect(first.body.count).to.equal(3);
      expect(first.body.results).to.have.length(2);
      expect(first.body.previous).to.equal(null);
      const second = await s.get(first.body.next, { authorization: `Bearer ${s.token}` });
      expect(second.body.results).to.have.length(1);
      expect(second.body.next).to.equal(null);
      const back = await s.get(second.body.previous, { authorization: `Bearer ${s.token}` });
      expect(back.body.results).to.deep.equal(first.body.results);
      const drafts = await s.api('GET', v1(`/collections/${collection}/resources/?status=draft`));
      expect(drafts.body.count).to.equal(1);
      const invalid = await s.api('GET', v1(`/collections/${collection}/resources/?limit=abc`));
      expect(invalid.status).to.equal(422);
      expect(invalid.body.error_code).to.equal('validation_error');
    });

    it('answers 404 for an unknown collection or resource', async () => {
      const c = await s.api('POST', v1('/collections/nope/resources/'), { data: {} });
      expect(c.status).to.equal(404);
      expect(c.body.error_code).to.equal('collection_not_found');
      const r = await s.api('GET', v1(`/collections/${collection}/resources/nope/`));
      expect(r.status).to.equal(404);
      expect(r.body.error_code).to.equal('resource_not_found');
    });
  });

  describe('delivery', () => {
    it('lists published resources anonymously with the cursor envelope', async () => {
      const r = await s.get(`${s.delivery}/site/articles/`);
      expect(r.status).to.equal(200);
      expect(r.body).to.have.all.keys('limit', 'next', 'previous', 'results');
      expect(r.body.results).to.have.length(2);
      const hello = r.body.results.find((item: { _sys: { key: string } }) => item._sys.key === resource);
      expect(hello).to.deep.equal({
        _sys: { key: resource, created_at: hello._sys.created_at, updated_at: hello._sys.updated_at, folder: collection },
        data: { title: 'Hello', views: 3 },
      });
    });

    it('pages with fully qualified next and previous URLs', async () => {
      const first = await s.get(`${s.delivery}/site/articles/?limit=1`);
      expect(first.body.results).to.have.length(1);
      expect(first.body.previous).to.equal(null);
      expect(first.body.next).to.match(/^http:\/\/127\.0\.0\.1:\d+\//);
      const second = await s.get(first.body.next);
      expect(second.body.results).to.have.length(1);
      expect(second.body.next).to.equal(null);
      const back = await s.get(second.body.previous);
      expect(back.body.results).to.deep.equal(first.body.results);
      const bad = await s.get(`${s.delivery}/site/articles/?limit=0`);
      expect(bad.status).to.equal(422);
      const cursor = await s.get(`${s.delivery}/site/articles/?next=garbage`);
      expect(cursor.status).to.equal(422);
    });

    it('gets one published resource and never a draft', async () => {
      const r = await s.get(`${s.delivery}/site/articles/${resource}/`);
      expect(r.status).to.equal(200);
      expect(r.body.data).to.deep.equal({ title: 'Hello', views: 3 });
      const missing = await s.get(`${s.delivery}/site/articles/nope/`);
      expect(missing.status).to.equal(404);
      expect(missing.body.error_code).to.equal('resource_not_found');
    });

    it('answers 404 for an unknown environment, prefix or collection path', async () => {
      expect((await s.get(`${s.service.urls.delivery}/nope/site/articles/`)).body.error_code).to.equal('environment_not_found');
      expect((await s.get(`${s.delivery}/nope/articles/`)).body.error_code).to.equal('api_not_found');
      const unconnected = await s.get(`${s.delivery}/site/drafts/`);
      expect(unconnected.status).to.equal(404);
      expect(unconnected.body.error_code).to.equal('collection_not_found');
    });

    it('honours get_many only: keys without data, and no get-one', async () => {
      const other = await s.api('POST', v1('/api/'), { name: 'Keys', prefix: 'keys' });
      await s.api('POST', v1(`/api/${other.body.key}/collections/`), { folder: collection, allowed_methods: ['get_many'] });
      const list = await s.get(`${s.delivery}/keys/articles/`);
      expect(list.status).to.equal(200);
      expect(list.body.results[0]).to.have.all.keys('_sys');
      const one = await s.get(`${s.delivery}/keys/articles/${resource}/`);
      expect(one.status).to.equal(403);
      expect(one.body.error_code).to.equal('permission_denied');
    });

    it('honours get_one only and [] : no list', async () => {
      const other = await s.api('POST', v1('/api/'), { name: 'One', prefix: 'one' });
      await s.api('POST', v1(`/api/${other.body.key}/collections/`), { folder: collection, allowed_methods: ['get_one'] });
      expect((await s.get(`${s.delivery}/one/articles/`)).status).to.equal(403);
      expect((await s.get(`${s.delivery}/one/articles/${resource}/`)).status).to.equal(200);
      const none = await s.api('POST', v1('/api/'), { name: 'None', prefix: 'none' });
      await s.api('POST', v1(`/api/${none.body.key}/collections/`), { folder: collection });
      expect((await s.get(`${s.delivery}/none/articles/`)).status).to.equal(403);
      expect((await s.get(`${s.delivery}/none/articles/${resource}/`)).status).to.equal(403);
    });

    it('answers 401 with the WWW-Authenticate challenge on an auth-required API', async () => {
      const closed = await s.api('POST', v1('/api/'), { name: 'Closed', prefix: 'closed', is_auth_required: true });
      await s.api('POST', v1(`/api/${closed.body.key}/collections/`), { folder: collection, allowed_methods: ['get_many'] });
      const r = await s.get(`${s.delivery}/closed/articles/`);
      expect(r.status).to.equal(401);
      expect(r.body).to.deep.equal({ message: r.body.message, error_code: 'authentication_required', detail: null });
      expect(r.headers.get('www-authenticate')).to.equal('Simple realm="delivery-api", Secure realm="delivery-api"');
    });

    it('refuses the sixth API of a free plan with 403 plan_limit_exceeded', async () => {
      const r = await s.api('POST', v1('/api/'), { name: 'Sixth', prefix: 'sixth' });
      expect(r.status).to.equal(403);
      expect(r.body.error_code).to.equal('plan_limit_exceeded');
      expect(r.body.detail).to.deep.equal({ entity: 'delivery_api', current: 5, limit: 5, upgrade_url: r.body.detail.upgrade_url });
    });
  });

  describe('audit', () => {
    it('lists one environment event per create, newest first, with actor and metadata', async () => {
      const r = await s.api('GET', v1('/events/?ordering=timestamp'));
      expect(r.status).to.equal(200);
      const events = r.body.results as Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
      const of = (type: string) => events.filter((e) => e.entity_type === type);
      expect(of('collection').map((e) => e.event_type)).to.deep.equal(['create', 'create']);
      expect(of('collection')[0]).to.deep.include({ entity_key: collection, actor_type: 'user', metadata: { parent_key: null } });
      expect(of('version').map((e) => [e.event_type, e.metadata])).to.deep.equal([
        ['create', { schema_key: null, schema_type: 'collection', folder_key: collection }],
        ['update', { action: 'publish', schema_key: null, schema_type: 'collection', folder_key: collection }],
      ]);
      expect(of('resource')).to.have.length(3);
      expect(of('resource')[0]).to.deep.include({ entity_key: resource, metadata: { folder_key: collection } });
      expect(of('revision')[0]?.metadata).to.deep.equal({ folder_key: collection, resource_key: resource });
      const connect = of('api').find((e) => e.event_type === 'update' && e.entity_key === api);
      expect(connect?.metadata).to.deep.equal({ action: 'connect', folder_key: collection, allowed_methods: ['get_many', 'get_one'] });
      const first = events[0]!;
      expect(first).to.have.all.keys('key', 'timestamp', 'event_type', 'entity_type', 'entity_key', 'actor_type', 'actor', 'ip_address', 'referer', 'metadata');
      expect(first.actor).to.have.all.keys('key', 'email', 'first_name', 'last_name', 'full_name', 'deleted_at');
      expect(first.timestamp).to.match(ISO);
      const newest = await s.api('GET', v1('/events/?limit=1'));
      expect(newest.body.results[0].key).to.equal(events[events.length - 1]!.key);
    });

    it('filters environment events and refuses bad filters with 422', async () => {
      const resources = await s.api('GET', v1(`/events/?entity_type=resource&resource_key=${resource}`));
      expect(resources.body.results.map((e: { entity_key: string }) => e.entity_key)).to.deep.equal([resource]);
      expect((await s.api('GET', v1('/events/?entity_type=nope'))).status).to.equal(422);
      expect((await s.api('GET', v1('/events/?actor_key=x'))).status).to.equal(422);
    });

    it('lists the bootstrap environment and project creation as global events', async () => {
      const r = await s.api('GET', '/v1/global-events/');
      expect(r.status).to.equal(200);
      const environment = r.body.results.find((e: { entity_type: string }) => e.entity_type === 'environment');
      expect(environment).to.deep.include({ event_type: 'create', entity_key: s.env, metadata: { project_key: s.service.bootstrap?.project } });
      const project = r.body.results.find((e: { entity_type: string }) => e.entity_type === 'project');
      expect(project).to.deep.include({ event_type: 'create', entity_key: s.service.bootstrap?.project });
    });
  });

  describe('restart', () => {
    it('reuses the data directory: no second bootstrap, the same token and data', async () => {
      await s.stop();
      s = await startTestService({}, s.dataDir);
      expect(s.service.bootstrapCreated).to.equal(false);
      const r = await s.api('GET', v1(`/collections/${collection}/resources/${resource}/data/`));
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal({ title: 'Hello', views: 3 });
    });
  });
});
