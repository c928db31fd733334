import { expect } from 'chai';
import { startTestService, type Reply, type TestService } from '../support/service.js';

describe('errors that say what to do', () => {
  let s: TestService;
  let e: string;
  let collection: string;
  let apiKey: string;

  const send = async (url: string, headers: Record<string, string>): Promise<Reply> => {
    const response = await fetch(url, { headers });
    return { status: response.status, body: await response.json(), headers: response.headers };
  };

  before(async () => {
    s = await startTestService({ PLAN: 'starter' });
    e = `/v1/${s.env}`;
    collection = (await s.api('POST', `${e}/collections/tree/`, { name: 'Articles', alias: 'articles' })).body.key;
    const v = (await s.api('POST', `${e}/collections/${collection}/model/versions/`, { name: 'v1' })).body.key;
    await s.api('POST', `${e}/collections/${collection}/model/versions/${v}/schema/tree/`, { key: 'title', name: 'Title', type: 'string', required: true });
    await s.api('POST', `${e}/collections/${collection}/model/versions/${v}/publish/`, {});
    await s.api('POST', `${e}/collections/tree/`, { name: 'News', alias: 'news', parent: collection });
    await s.api('POST', `${e}/collections/tree/`, { name: 'Pages', alias: 'pages' });
    apiKey = (await s.api('POST', `${e}/api/`, { name: 'Site', prefix: 'site', is_auth_required: false })).body.key;
    await s.api('POST', `${e}/api/${apiKey}/collections/`, { folder: collection, allowed_methods: ['get_many', 'get_one'] });
    await s.api('POST', `${e}/collections/${collection}/resources/`, { data: { title: 'Hello' } });
  });
  after(() => s.stop());

  describe('every 401 says which of missing header, unknown scheme, bad format or unknown credential it was', () => {
    const cases: [string, Record<string, string>, RegExp][] = [
      ['a missing header', {}, /No Authorization header was sent/],
      ['an unknown scheme (or no scheme word)', { authorization: 'Token abc' }, /does not start with a known scheme/],
      ['a token with no scheme word', { authorization: 'abc' }, /does not start with a known scheme/],
      ['a scheme with no value', { authorization: 'Bearer' }, /not in its scheme's format/],
      ['a Simple key without its secret', { authorization: 'Simple abc' }, /not in its scheme's format/],
      ['an unknown token', { authorization: 'Bearer not-a-token' }, /unknown, revoked or does not match/],
      ['an unknown key', { authorization: 'Simple pk:sk' }, /unknown, revoked or does not match/],
    ];
    for (const [name, headers, message] of cases) {
      it(`on the management interface: ${name}`, async () => {
        const r = await send(`${s.base}${e}/collections/tree/`, headers);
        expect(r.status).to.equal(401);
        expect(r.body.error_code).to.equal('authentication_failed');
        expect(r.body.message).to.match(message);
      });
    }

    it('on the delivery interface: a missing header on an auth-required API, a bad format and an unknown key', async () => {
      const priv = (await s.api('POST', `${e}/api/`, { name: 'Private', prefix: 'private', is_auth_required: true })).body.key;
      await s.api('POST', `${e}/api/${priv}/collections/`, { folder: collection, allowed_methods: ['get_many'] });
      const url = `${s.delivery}/private/articles/`;
      const missing = await send(url, {});
      expect([missing.status, missing.body.error_code]).to.deep.equal([401, 'authentication_required']);
      expect(missing.body.message).to.match(/No Authorization header was sent/);
      expect((await send(url, { authorization: 'Basic abc' })).body.message).to.match(/does not start with a known scheme/);
      expect((await send(url, { authorization: 'Simple abc' })).body.message).to.match(/not in its scheme's format/);
      expect((await send(url, { authorization: 'Simple pk:sk' })).body.message).to.match(/unknown, revoked or does not match/);
    });
  });

  it('an enum refusal lists the allowed values', async () => {
    const v = (await s.api('POST', `${e}/collections/${collection}/model/versions/`, { name: 'v2' })).body.key;
    const r = await s.api('POST', `${e}/collections/${collection}/model/versions/${v}/schema/tree/`, { key: 'x', name: 'X', type: 'strng' });
    expect(r.status).to.equal(422);
    expect(r.body.error_code).to.equal('validation_error');
    const messages: string[] = r.body.detail.type;
    expect(messages.join(' ')).to.match(/must be one of: .*"string".*"integer"/);
  });

  it('an unknown field in content data suggests the nearest known one', async () => {
    const r = await s.api('POST', `${e}/collections/${collection}/resources/`, { data: { title: 'x', titel: 'y' } });
    expect(r.status).to.equal(422);
    expect(JSON.stringify(r.body.detail)).to.include('unknown field titel (did you mean title?)');
  });

  it('an unknown field in a request body suggests the nearest known one, and none when nothing is near', async () => {
    const near = await s.api('POST', `${e}/collections/tree/`, { name: 'X', alias: 'x', aliass: 'y' });
    expect(near.status).to.equal(422);
    expect(near.body.detail.aliass).to.deep.equal(['is not allowed (did you mean alias?)']);
    const far = await s.api('POST', `${e}/collections/tree/`, { name: 'X', alias: 'x', zzzzzz: 'y' });
    expect(far.body.detail.zzzzzz).to.deep.equal(['is not allowed']);
  });

  it('an unknown field in a delivery filter suggests the nearest known one', async () => {
    const r = await s.get(`${s.delivery}/site/articles/?where__titel__eq=x`);
    expect(r.status).to.equal(422);
    expect(JSON.stringify(r.body.detail)).to.include('unknown field titel (did you mean title?)');
  });

  it('a collection that exists but is not connected says so and names the call that connects it', async () => {
    const r = await s.get(`${s.delivery}/site/pages/`);
    expect(r.status).to.equal(404);
    expect(r.body.error_code).to.equal('collection_not_found');
    expect(r.body.message).to.include('exists but is not connected to the API site');
    expect(r.body.message).to.include(`POST /v1/{env}/api/${apiKey}/collections/`);
  });

  it('an unconnected child collection is collection_not_found, not resource_not_found', async () => {
    const r = await s.get(`${s.delivery}/site/articles/news/`);
    expect(r.status).to.equal(404);
    expect(r.body.error_code).to.equal('collection_not_found');
    expect(r.body.message).to.include('articles/news exists but is not connected');
  });

  it('_search on a collection with nothing searchable or vectorizable is 422 naming the fields to mark', async () => {
    const post = async (body: object) => {
      const response = await fetch(`${s.delivery}/site/articles/_search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as Reply['body'] };
    };
    const text = await post({ find_text: { query: 'hello' } });
    expect([text.status, text.body.error_code]).to.deep.equal([422, 'validation_error']);
    expect(text.body.detail.find_text.join(' ')).to.include('no searchable field').and.include('(title)');
    const vector = await post({ search_mode: 'vector', vector_search: { query: 'hello world' } });
    expect([vector.status, vector.body.error_code]).to.deep.equal([422, 'validation_error']);
    expect(vector.body.detail.vector_search.join(' ')).to.include('no vectorizable field').and.include('(title)');
  });

  it('a collection that does not exist stays a plain collection_not_found', async () => {
    const r = await s.get(`${s.delivery}/site/nothing/`);
    expect([r.status, r.body.error_code]).to.deep.equal([404, 'collection_not_found']);
    expect(r.body.message).not.to.include('not connected');
  });
});
