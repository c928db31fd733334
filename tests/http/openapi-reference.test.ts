import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('the management reference names operations in words, tags them by area, applies security and lists error codes', () => {
  let s: TestService;
  let doc: Json;
  const op = (method: string, path: string): Json => doc.paths[path][method];

  before(async () => {
    s = await startTestService();
    doc = (await s.get(`${s.base}/openapi.json`)).body as Json;
  });
  after(() => s.stop());

  it('summarises each operation in words, never as its route string', () => {
    expect(op('get', '/v1/{env}/collections/{collection}/resources/').summary).to.equal('List resources');
    expect(op('post', '/v1/{env}/collections/{collection}/resources/').summary).to.equal('Create a resource');
    expect(op('post', '/v1/{env}/collections/{collection}/model/versions/{version}/publish/').summary).to.equal('Publish a version');
    expect(op('post', '/v1/{env}/permissions/management-api/api-keys/').summary).to.equal('Create a management API key');
    expect(op('post', '/v1/{env}/api/{api}/collections/').summary).to.equal('Connect a collection to a delivery API');
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const [method, operation] of Object.entries(item as Json)) {
        expect(operation.summary, `${method} ${path}`).not.to.match(/^(GET|POST|PUT|PATCH|DELETE|OPTIONS) \//);
        expect(operation.summary, `${method} ${path}`).to.match(/^[A-Z]/);
      }
    }
  });

  it('documents every query parameter a route takes, as the strict parameter check allows them', () => {
    const names = (path: string, method = 'get') => op(method, path).parameters.filter((p: Json) => p.in === 'query').map((p: Json) => p.name);
    expect(names('/v1/{env}/collections/{collection}/resources/')).to.include.members(['limit', 'offset', 'ordering', 'status', 'external_id', 'as_of']);
    expect(names('/v1/{env}/collections/{collection}/resources/', 'post')).to.include.members(['external_id', 'wait']);
    expect(names('/v1/{env}/events/')).to.include.members(['event_type', 'entity_type', 'collection_key', 'from_timestamp']);
  });

  it('tags operations by area', () => {
    expect(op('get', '/v1/{env}/collections/{collection}/resources/').tags).to.deep.equal(['Content']);
    expect(op('get', '/v1/{env}/api/{api}/collections/').tags).to.deep.equal(['Delivery APIs']);
    expect(op('get', '/v1/{env}/locales/').tags).to.deep.equal(['Locales']);
    expect(op('get', '/v1/{env}/events/').tags).to.deep.equal(['Audit log']);
    expect(op('get', '/healthz').tags).to.deep.equal(['Operations']);
  });

  it('applies the bearer scheme to the whole document, and none to the open routes', () => {
    expect(doc.security).to.deep.equal([{ management: [] }]);
    expect(doc.components.securitySchemes.management.scheme).to.equal('bearer');
    expect(op('get', '/healthz').security).to.deep.equal([]);
    expect(op('get', '/v1/{env}/locales/').security).to.deep.equal([{ management: [] }]);
  });

  it('shows every error code an operation can answer, by status', () => {
    const create = op('post', '/v1/{env}/collections/{collection}/resources/').responses;
    expect(create['401'].description).to.include('`authentication_failed`');
    expect(create['404'].description).to.include('`environment_not_found`').and.include('`collection_not_found`');
    expect(create['409'].description).to.include('`external_id_conflict`');
    expect(create['422'].description).to.include('`validation_error`');
    expect(create['402'].description).to.include('`plan_exhausted`');
    expect(create['422'].content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/Error' });
    const publish = op('post', '/v1/{env}/collections/{collection}/model/versions/{version}/publish/').responses;
    expect(publish['404'].description).to.include('`version_not_found`');
    expect(publish['422'].description).to.include('`cannot_publish_empty_schema`');
    expect(op('get', '/healthz').responses).not.to.have.property('401');
  });

  it('answers a refused request with a code its operation lists', async () => {
    const r = await s.api('POST', `/v1/${s.env}/collections/nothing/resources/`, { data: {} });
    expect(r.status).to.equal(404);
    expect(op('post', '/v1/{env}/collections/{collection}/resources/').responses['404'].description).to.include(`\`${r.body.error_code}\``);
    const anonymous = await s.get(`${s.base}/v1/${s.env}/locales/`);
    expect(op('get', '/v1/{env}/locales/').responses[String(anonymous.status)].description).to.include(`\`${anonymous.body.error_code}\``);
  });
});
