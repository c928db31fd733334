import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.js';

/** Resource data validated by the JSON schema a version with fields of every type generates on publish. */
describe('resource data through fields of every type over HTTP', () => {
  let s: TestService;
  let collection: string;
  let target: string;
  let component: string;
  const v1 = (path: string): string => `/v1/${s.env}${path}`;
  const post = async (path: string, body: unknown) => {
    const r = await s.api('POST', v1(path), body);
    expect(r.status, `${path} ${JSON.stringify(body)} → ${JSON.stringify(r.body)}`).to.be.oneOf([200, 201]);
    return r.body;
  };
  const createResource = (data: unknown) => s.api('POST', v1(`/collections/${collection}/resources/`), { data });

  const valid = {
    title: 'Hello',
    body: 'Long text',
    views: 3,
    score: 2.5,
    on: true,
    day: '2026-02-28',
    at: '10:15:00.250Z',
    when: '2026-02-28T10:15:00Z',
    raw: { any: ['thing', 1] },
    author: '',
    related: [] as string[],
    seo: { slug: 'hello' },
    tags: ['a', 'b'],
    anyBlocks: [{ quote: 'q' }, { quote: 'q', image: 'i' }],
    allBlocks: [{ quote: 'q', image: 'i' }],
    oneBlocks: [{ image: 'i' }],
    address: { city: 'Oslo' },
    embedding: Array.from({ length: 256 }, (_, i) => i / 256),
    headline: { en: 'Hi', de: 'Hallo' },
    status: 'live',
  };

  before(async () => {
    s = await startTestService();
    target = (await post('/collections/tree/', { name: 'People', alias: 'people' })).key;
    collection = (await post('/collections/tree/', { name: 'Posts', alias: 'posts' })).key;
    valid.author = `${target}::abc123`;
    valid.related = [`${target}::a`, `${target}::b`];

    component = (await post('/components/', { name: 'Address' })).key;
    const cv = (await post(`/components/${component}/model/versions/`, {})).key;
    await post(`/components/${component}/model/versions/${cv}/schema/tree/`, { key: 'city', type: 'string', required: true });
    await post(`/components/${component}/model/versions/${cv}/publish/`, {});

    const version = (await post(`/collections/${collection}/model/versions/`, {})).key;
    const fields = [
      { key: 'title', type: 'string', required: true, meta: { maxLength: 20 } },
      { key: 'body', type: 'text' },
      { key: 'views', type: 'integer', meta: { minimum: 0 } },
      { key: 'score', type: 'number', meta: { maximum: 5 } },
      { key: 'on', type: 'boolean' },
      { key: 'day', type: 'date' },
      { key: 'at', type: 'time' },
      { key: 'when', type: 'datetime' },
      { key: 'raw', type: 'json' },
      { key: 'author', type: 'reference', meta: { collections: [target] } },
      { key: 'related', type: 'relation' },
      { key: 'seo', type: 'object' },
      { key: 'slug', type: 'string', parent: 'seo', required: true, meta: { pattern: '^[a-z-]+$' } },
      { key: 'tags', type: 'array', meta: { items: 'string', enum: ['a', 'b', 'c'] } },
      { key: 'anyBlocks', type: 'array', meta: { items: 'object', match: 'any' } },
      { key: 'quote', type: 'text', parent: 'anyBlocks' },
      { key: 'image', type: 'string', parent: 'anyBlocks' },
      { key: 'allBlocks', type: 'array', meta: { items: 'object', match: 'all' } },
      { key: 'quote', type: 'text', parent: 'allBlocks' },
      { key: 'image', type: 'string', parent: 'allBlocks' },
      { key: 'oneBlocks', type: 'array', meta: { items: 'object', match: 'one' } },
      { key: 'quote', type: 'text', parent: 'oneBlocks' },
      { key: 'image', type: 'string', parent: 'oneBlocks' },
      { key: 'address', type: 'nested', meta: { component, component_version: cv } },
      { key: 'embedding', type: 'vector', meta: { dimensions: 256 } },
      { key: 'headline', type: 'string', localizable: true },
      { key: 'status', type: 'string', nullable: true, meta: { enum: ['draft', 'live'] } },
    ];
    for (const field of fields) await post(`/collections/${collection}/model/versions/${version}/schema/tree/`, field);
    const published = await post(`/collections/${collection}/model/versions/${version}/publish/`, {});
    expect(published.json_schema.properties.headline['x-localizable']).to.equal(true);
  });
  after(async () => s?.stop());

  it('creates a resource whose data uses every field type (201)', async () => {
    const r = await createResource(valid);
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    const data = await s.api('GET', v1(`/collections/${collection}/resources/${r.body.key}/data/`));
    expect(data.body).to.deep.equal(valid);
    expect((await createResource({ title: 'Only required' })).status).to.equal(201);
    expect((await createResource({ ...valid, status: null })).status).to.equal(201);
  });

  const invalid: [string, Record<string, unknown>][] = [
    ['a missing required field', { body: 'no title' }],
    ['an unknown field', { unknown: 1 }],
    ['a string over its maxLength', { title: 'x'.repeat(21) }],
    ['a number for a text', { body: 5 }],
    ['a fraction for an integer', { views: 1.5 }],
    ['an integer under its minimum', { views: -1 }],
    ['a number over its maximum', { score: 6 }],
    ['a string for a boolean', { on: 'yes' }],
    ['an impossible date', { day: '2026-02-30' }],
    ['a time without Z', { at: '10:15:00' }],
    ['a datetime with an offset', { when: '2026-02-28T10:15:00+01:00' }],
    ['a reference into another collection', { author: 'other::abc' }],
    ['a reference without a collection', { author: 'abc123' }],
    ['a relation that repeats a value', { related: ['any::a', 'any::a'] }],
    ['an object missing its required child', { seo: {} }],
    ['an object child failing its pattern', { seo: { slug: 'Not Valid' } }],
    ['an array item outside its enum', { tags: ['z'] }],
    ['an empty item of a match-any array', { anyBlocks: [{}] }],
    ['a partial item of a match-all array', { allBlocks: [{ quote: 'q' }] }],
    ['a double item of a match-one array', { oneBlocks: [{ quote: 'q', image: 'i' }] }],
    ['an unknown key in a match item', { anyBlocks: [{ quote: 'q', other: 1 }] }],
    ['a nested component missing its required field', { address: {} }],
    ['a vector of the wrong dimension', { embedding: [1, 2, 3] }],
    ['a localizable value without the default locale', { headline: { de: 'Hallo' } }],
    ['a value outside the enum', { status: 'gone' }],
  ];
  for (const [what, change] of invalid) {
    it(`refuses ${what} with 422 and writes nothing`, async () => {
      const before = (await s.api('GET', v1(`/collections/${collection}/resources/`))).body.count;
      const data = 'body' in change && !('title' in change) ? change : { ...valid, ...change };
      const r = await createResource(data);
      expect(r.status, JSON.stringify(r.body)).to.equal(422);
      expect(r.body.error_code).to.equal('validation_error');
      expect((await s.api('GET', v1(`/collections/${collection}/resources/`))).body.count).to.equal(before);
    });
  }

  it('refuses a non-object localizable value with 422', async () => {
    const r = await createResource({ ...valid, headline: 'Hi' });
    expect(r.status).to.equal(422);
    expect(r.body.error_code).to.be.oneOf(['validation_error', 'localizable_data_should_be_object']);
  });
});
