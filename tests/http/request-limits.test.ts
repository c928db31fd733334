import { expect } from 'chai';
import { MAX_BODY_DEPTH, nestsDeeperThan } from '../../infra/http/body-depth.js';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

const nested = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

describe('body nesting depth', () => {
  it('counts objects and arrays as levels and ignores scalars', () => {
    expect(nestsDeeperThan(1, 0)).to.equal(false);
    expect(nestsDeeperThan({ a: [1, { b: 2 }] }, 3)).to.equal(false);
    expect(nestsDeeperThan({ a: [1, { b: 2 }] }, 2)).to.equal(true);
    expect(nestsDeeperThan(JSON.parse(nested(100_000)), MAX_BODY_DEPTH)).to.equal(true);
  });
});

/** Request shapes that would otherwise reach the stores: deep nesting and huge integers. */
describe('HTTP: request limits', function () {
  this.timeout(30_000);
  let s: TestService;
  let folder: string;

  before(async () => {
    s = await startTestService();
    folder = await collectionWithSchema(s, 'notes');
  });
  after(() => s.stop());

  const draft = (data: string) =>
    s.api('POST', v1(s, `/collections/${folder}/resources/`), `{"data":${data},"mode":"draft","validate_data":false}`);

  it('refuses a path that is not valid percent-encoding with 422 validation_error naming the path, on both interfaces', async () => {
    for (const url of [`${s.base}${v1(s, '/collections/%ZZ/resources/')}`, `${s.service.urls.delivery}/${s.env}/site/articles/%ZZ/`]) {
      const r = await s.get(url, { authorization: `Bearer ${s.token}` });
      expect(r.status, url).to.equal(422);
      expect(r.body.error_code, url).to.equal('validation_error');
      expect(r.body.message, url).to.match(/^The request path is not valid percent-encoding\./);
    }
  });

  it('refuses bodies nested deeper than the limit with 422 validation_error, writing nothing', async () => {
    for (const levels of [MAX_BODY_DEPTH, 1_000, 5_000]) {
      const reply = await draft(nested(levels));
      expect(reply.status, `${levels} levels`).to.equal(422);
      expect(reply.body.error_code).to.equal('validation_error');
    }
    const upsert = await s.api('PUT', v1(s, `/collections/${folder}/resources/?external_id=deep`), `{"data":${nested(2_000)}}`);
    expect(upsert.status).to.equal(422);
    expect((await s.api('GET', v1(s, `/collections/${folder}/resources/`))).body.count).to.equal(0);
  });

  it('accepts a body just inside the limit, and the read side keeps up after refused ones', async () => {
    const reply = await draft(nested(MAX_BODY_DEPTH - 2));
    expect(reply.status, JSON.stringify(reply.body)).to.equal(201);
    const data = await s.api('GET', v1(s, `/collections/${folder}/resources/${reply.body.key}/revisions/`));
    expect(data.status).to.equal(200);
    expect(data.body.count).to.equal(1);
  });

  it('refuses offsets and limits beyond the largest safe integer with 422, and serves an empty page just below', async () => {
    const lists = ['/collections/tree/', '/components/', '/events/', `/collections/${folder}/resources/`, `/collections/${folder}/model/versions/`];
    for (const list of lists) {
      const huge = await s.api('GET', v1(s, `${list}?offset=9223372036854775807`));
      expect(huge.status, list).to.equal(422);
      expect(huge.body.error_code).to.equal('validation_error');
      const limit = await s.api('GET', v1(s, `${list}?limit=99999999999999999999`));
      expect(limit.status, list).to.equal(422);
      const edge = await s.api('GET', v1(s, `${list}?offset=${Number.MAX_SAFE_INTEGER}`));
      expect(edge.status, list).to.equal(200);
      expect(edge.body.results).to.deep.equal([]);
    }
  });
});
