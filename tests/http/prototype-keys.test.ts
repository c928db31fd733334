import { expect } from 'chai';
import { startTestService, type Reply, type TestService } from '../support/service.js';

/**
 * Keys named like Object.prototype members (docs/decisions/0030): in a path, a query or a body
 * they name nothing until an entity is created under that name, and are never mistaken for
 * one by the aggregate state they are looked up in.
 */
const NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty'];
/** The names that are valid locale codes and field keys (letters first). */
const VALID = ['constructor', 'toString', 'hasOwnProperty'];

describe('keys named like Object.prototype members over HTTP', () => {
  let s: TestService;
  let collection: string;
  let version: string;
  let component: string;
  let api: string;
  const v1 = (path: string): string => `/v1/${s.env}${path}`;
  const eventCount = async (): Promise<number> => (await s.api('GET', v1('/events/?limit=1'))).body.count;
  const expectError = (r: Reply, status: number, code: string, label: string) => {
    expect(r.status, `${label}: ${JSON.stringify(r.body)}`).to.equal(status);
    expect(r.body.error_code, label).to.equal(code);
  };
  /** Runs refused requests and checks they wrote nothing the audit log would show. */
  const refusedWithoutEvents = async (run: () => Promise<void>) => {
    const before = await eventCount();
    await run();
    expect(await eventCount(), 'no phantom audit events').to.equal(before);
  };

  before(async () => {
    s = await startTestService({ PLAN: 'pro' });
    collection = (await s.api('POST', v1('/collections/tree/'), { name: 'Posts', alias: 'posts' })).body.key;
    version = (await s.api('POST', v1(`/collections/${collection}/model/versions/`), {})).body.key;
    expect((await s.api('POST', v1(`/collections/${collection}/model/versions/${version}/schema/tree/`), { key: 'title', type: 'string' })).status).to.equal(201);
    component = (await s.api('POST', v1('/components/'), { name: 'Address' })).body.key;
    api = (await s.api('POST', v1('/api/'), { name: 'Site', prefix: 'site' })).body.key;
  });
  after(async () => s?.stop());

  describe('schema versions', () => {
    it('refuses copy_from such a name with 404 source_version_not_found, and the read side keeps up (201, not 202)', async () => {
      await refusedWithoutEvents(async () => {
        for (const name of NAMES) {
          const r = await s.api('POST', v1(`/collections/${collection}/model/versions/?copy_from=${name}`), {});
          expectError(r, 404, 'source_version_not_found', name);
        }
      });
      const next = await s.api('POST', v1(`/collections/${collection}/model/versions/?copy_from=${version}`), {});
      expect(next.status).to.equal(201);
      expect(next.body.key).to.be.a('string');
      const resource = await s.api('POST', v1(`/collections/${collection}/resources/?wait=true`), { data: {}, mode: 'draft', validate_data: false });
      expect(resource.status).to.equal(201);
      const listed = await s.api('GET', v1(`/collections/${collection}/model/versions/`));
      expect(listed.body.count).to.equal(2);
    });

    it('answers 404 version_not_found to PUT, DELETE, publish and field writes on such a version', async () => {
      await refusedWithoutEvents(async () => {
        for (const name of NAMES) {
          const base = v1(`/collections/${collection}/model/versions/${name}`);
          expectError(await s.api('PUT', `${base}/`, { name: 'x' }), 404, 'version_not_found', `PUT ${name}`);
          expectError(await s.api('DELETE', `${base}/`), 404, 'version_not_found', `DELETE ${name}`);
          expectError(await s.api('POST', `${base}/publish/`, {}), 404, 'version_not_found', `publish ${name}`);
          expectError(await s.api('POST', `${base}/schema/tree/`, { key: 'z', type: 'string' }), 404, 'version_not_found', `field on ${name}`);
          expectError(await s.api('PUT', `${base}/schema/tree/field/?path=title`, { name: 'x' }), 404, 'version_not_found', `field PUT on ${name}`);
          expectError(await s.api('DELETE', `${base}/schema/tree/field/?path=title`), 404, 'version_not_found', `field DELETE on ${name}`);
          expectError(await s.api('GET', `${base}/`), 404, 'version_not_found', `GET ${name}`);
        }
      });
    });
  });

  describe('the collection tree', () => {
    it('refuses such a parent on create and on a move with 404 collection_not_found', async () => {
      await refusedWithoutEvents(async () => {
        for (const name of NAMES) {
          expectError(await s.api('POST', v1('/collections/tree/'), { name: 'B', alias: 'b', parent: name }), 404, 'collection_not_found', `create under ${name}`);
          expectError(await s.api('PUT', v1(`/collections/tree/collection/?key=${collection}`), { parent: name }), 404, 'collection_not_found', `move under ${name}`);
        }
      });
      const tree = await s.api('GET', v1('/collections/tree/'));
      expect(tree.body.results.map((c: { path: string }) => c.path)).to.deep.equal(['posts']);
    });

    it('answers 404 collection_not_found to PUT and DELETE of such a key, and to its resources and schema', async () => {
      await refusedWithoutEvents(async () => {
        for (const name of NAMES) {
          expectError(await s.api('PUT', v1(`/collections/tree/collection/?key=${name}`), { name: 'x' }), 404, 'collection_not_found', `PUT ${name}`);
          expectError(await s.api('DELETE', v1(`/collections/tree/collection/?key=${name}`)), 404, 'collection_not_found', `DELETE ${name}`);
          expectError(await s.api('POST', v1(`/collections/${name}/resources/`), { data: {} }), 404, 'collection_not_found', `resource in ${name}`);
          expectError(await s.api('PUT', v1(`/collections/${name}/resources/?external_id=e1`), { data: {} }), 404, 'collection_not_found', `upsert in ${name}`);
          expectError(await s.api('POST', v1(`/collections/${name}/model/versions/`), {}), 404, 'collection_not_found', `version of ${name}`);
        }
      });
    });
  });

  describe('components', () => {
    it('answers 404 component_not_found to PUT, DELETE and new versions of such a component', async () => {
      await refusedWithoutEvents(async () => {
        for (const name of NAMES) {
          expectError(await s.api('PUT', v1(`/components/${name}/`), { name: 'x' }), 404, 'component_not_found', `PUT ${name}`);
          expectError(await s.api('DELETE', v1(`/components/${name}/`)), 404, 'component_not_found', `DELETE ${name}`);
          expectError(await s.api('POST', v1(`/components/${name}/model/versions/`), {}), 404, 'component_not_found', `version of ${name}`);
          expectError(await s.api('GET', v1(`/components/${name}/`)), 404, 'component_not_found', `GET ${name}`);
        }
      });
      expect((await s.api('GET', v1('/components/'))).body.count).to.equal(1);
      expect((await s.api('GET', v1(`/components/${component}/`))).status).to.equal(200);
    });

    it('refuses a nested field pinning such a component or version with 404', async () => {
      const draft = (await s.api('POST', v1(`/collections/${collection}/model/versions/`), {})).body.key;
      await refusedWithoutEvents(async () => {
        for (const name of NAMES) {
          const field = (meta: unknown) => s.api('POST', v1(`/collections/${collection}/model/versions/${draft}/schema/tree/`), { key: 'n', type: 'nested', meta });
          expectError(await field({ component: name, component_version: 'v' }), 404, 'component_not_found', `component ${name}`);
          expectError(await field({ component, component_version: name }), 404, 'version_not_found', `component version ${name}`);
        }
      });
    });
  });

  describe('delivery APIs', () => {
    it('answers 404 api_not_found and collection_not_found to such APIs, folders and connections', async () => {
      await refusedWithoutEvents(async () => {
        for (const name of NAMES) {
          expectError(await s.api('PUT', v1(`/api/${name}/`), { name: 'x', prefix: 'x' }), 404, 'api_not_found', `PUT ${name}`);
          expectError(await s.api('DELETE', v1(`/api/${name}/`)), 404, 'api_not_found', `DELETE ${name}`);
          expectError(await s.api('POST', v1(`/api/${api}/collections/`), { folder: name }), 404, 'collection_not_found', `connect ${name}`);
          expectError(await s.api('PUT', v1(`/api/${api}/collections/${name}/`), {}), 404, 'collection_not_found', `PUT connection ${name}`);
          expectError(await s.api('DELETE', v1(`/api/${api}/collections/${name}/`)), 404, 'collection_not_found', `DELETE connection ${name}`);
        }
      });
    });
  });

  describe('locales', () => {
    it('answers 404 not_found to PUT and DELETE of such a code before it exists', async () => {
      await refusedWithoutEvents(async () => {
        for (const name of NAMES) {
          expectError(await s.api('PUT', v1(`/locales/${name}/`), { name: 'x' }), 404, 'not_found', `PUT ${name}`);
          expectError(await s.api('DELETE', v1(`/locales/${name}/`)), 404, 'not_found', `DELETE ${name}`);
          expectError(await s.api('GET', v1(`/locales/${name}/`)), 404, 'not_found', `GET ${name}`);
        }
      });
    });

    it('creates (201), updates (200) and deletes (204) a locale whose code is such a name, one audit entry each', async () => {
      for (const code of VALID) {
        const created = await s.api('POST', v1('/locales/'), { name: code, code });
        expect(created.status, code).to.equal(201);
        expect(created.body).to.include({ code, name: code, is_default: false });
        const updated = await s.api('PUT', v1(`/locales/${code}/`), { name: `${code}!` });
        expect(updated.status, code).to.equal(200);
        expect(updated.body).to.include({ code, name: `${code}!` });
        expect((await s.api('DELETE', v1(`/locales/${code}/`))).status, code).to.equal(204);
        const audit = (await s.api('GET', v1(`/events/?entity_type=locale&entity_key=${code}&ordering=timestamp`))).body.results;
        expect(audit.map((e: { event_type: string }) => e.event_type), code).to.deep.equal(['create', 'update', 'delete']);
      }
      expectError(await s.api('POST', v1('/locales/'), { name: 'x', code: '__proto__' }), 422, 'validation_error', 'code __proto__');
      const listed = await s.api('GET', v1('/locales/'));
      expect(listed.body.map((l: { code: string }) => l.code)).to.deep.equal(['en']);
    });
  });

  describe('fields and resource data', () => {
    it('takes such names as field keys (201) and validates a localizable one left out as a missing required field', async () => {
      const c = (await s.api('POST', v1('/collections/tree/'), { name: 'Pages', alias: 'pages' })).body.key;
      const v = (await s.api('POST', v1(`/collections/${c}/model/versions/`), {})).body.key;
      const tree = v1(`/collections/${c}/model/versions/${v}/schema/tree/`);
      for (const key of VALID) {
        const r = await s.api('POST', tree, { key, type: 'string', required: key === 'constructor', localizable: key === 'constructor' });
        expect(r.status, key).to.equal(201);
        expect(r.body).to.include({ key, path: key });
      }
      expectError(await s.api('POST', tree, { key: '__proto__', type: 'string' }), 422, 'validation_error', 'field key __proto__');
      expectError(await s.api('POST', tree, { key: 'x', type: 'string', parent: 'valueOf' }), 422, 'validation_error', 'parent valueOf');
      expect((await s.api('POST', v1(`/collections/${c}/model/versions/${v}/publish/`), {})).status).to.equal(200);

      const missing = await s.api('POST', v1(`/collections/${c}/resources/`), { data: { toString: 'a' } });
      expectError(missing, 422, 'validation_error', 'constructor left out');
      expect(missing.body.detail.errors.map((e: { message: string }) => e.message)).to.deep.equal(["must have required property 'constructor'"]);
      const plain = await s.api('POST', v1(`/collections/${c}/resources/`), { data: { constructor: 'x' } });
      expectError(plain, 422, 'localizable_data_should_be_object', 'constructor as a string');
      const ok = await s.api('POST', v1(`/collections/${c}/resources/`), { data: { constructor: { en: 'x' }, toString: 'a', hasOwnProperty: 'b' } });
      expect(ok.status).to.equal(201);
    });

    it('reports such an unknown body member with 422 naming it, not a 500', async () => {
      for (const name of NAMES) {
        const r = await s.api('POST', v1('/components/'), `{"name":"x","${name}":1}`);
        expectError(r, 422, 'validation_error', name);
        expect(r.body.detail).to.deep.equal({ [name]: ['is not allowed'] });
      }
    });
  });

  describe('after all of the above', () => {
    it('restarts on the same data and keeps writing with read-your-writes (201)', async () => {
      await s.stop();
      s = await startTestService({ PLAN: 'pro' }, s.dataDir);
      const r = await s.api('POST', v1('/collections/tree/'), { name: 'After', alias: 'after' });
      expect(r.status).to.equal(201);
      expect(r.body.path).to.equal('after');
    });
  });
});
