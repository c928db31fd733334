import { expect } from 'chai';
import fc from 'fast-check';
import type { EventStore } from '../../commands/ports.js';
import { collectionWithSchema, v1 } from '../support/content.js';
import { deliveryRequest, managementRequest, MANAGEMENT_ROUTES, type Fixtures, type FuzzRequest } from '../support/fuzz-requests.js';
import { startTestService, type TestService } from '../support/service.js';

/** `npm run fuzz` raises this to 100,000; `npm test` sends a few thousand. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 2500);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

type Answer = { status: number; text: string };

async function send(base: string, request: FuzzRequest): Promise<Answer | null> {
  try {
    const response = await fetch(`${base}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    // fetch itself refuses some generated inputs (a header value it cannot send): nothing went out.
    if (error instanceof TypeError && !/fetch failed/.test(error.message)) return null;
    throw error;
  }
}

/** A refusal is `{message, error_code, detail}`. */
function expectEnvelope(request: FuzzRequest, answer: Answer): void {
  const where = `${request.method} ${request.path} → ${answer.status} ${answer.text.slice(0, 300)}`;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    expect.fail(`not JSON: ${where}`);
  }
  expect(body, where).to.be.an('object').that.has.all.keys('message', 'error_code', 'detail');
  const { message, error_code } = body as { message: unknown; error_code: unknown };
  expect(message, where).to.be.a('string');
  expect(error_code, where).to.be.a('string');
}

describe('fuzz: generated bad requests on every endpoint', function () {
  this.timeout(60_000 + RUNS * 50);
  let s: TestService;
  let events: EventStore;
  let fixtures: Fixtures;
  const figures = { sent: 0, refused: 0, accepted: 0, serverErrors: 0, statuses: {} as Record<number, number> };

  before(async () => {
    s = await startTestService({ WAIT_TIMEOUT_MS: '2000' }, undefined, { wrapEventStore: (store) => (events = store) });
    const collection = await collectionWithSchema(s, 'fuzzed');
    const resource = await s.api('POST', v1(s, `/collections/${collection}/resources/`), { data: { title: 'seed' } });
    const revision = await s.api('POST', v1(s, `/collections/${collection}/resources/${resource.body.key}/revisions/`), { data: { title: 'draft' } });
    const draft = await s.api('POST', v1(s, `/collections/${collection}/model/versions/`), {});
    await s.api('POST', v1(s, `/collections/${collection}/model/versions/${draft.body.key}/schema/tree/`), { key: 'title', type: 'string' });
    const component = await s.api('POST', v1(s, '/components/'), { name: 'Part', key: 'part' });
    const api = await s.api('POST', v1(s, '/api/'), { name: 'Site', prefix: 'site' });
    await s.api('POST', v1(s, `/api/${api.body.key}/collections/`), { folder: collection, allowed_methods: ['get_many', 'get_one'] });
    await s.api('POST', v1(s, '/locales/'), { code: 'de', name: 'German' });
    const key = await s.api('POST', v1(s, '/permissions/management-api/api-keys/'), { name: 'fuzz' });
    fixtures = {
      env: s.env,
      collection,
      schema: fc.sample(fc.constantFrom(`collections/${collection}`, `folders/${collection}`, `components/${component.body.key ?? 'part'}`), 1)[0] as string,
      resource: resource.body.key,
      revision: revision.body.key,
      version: draft.body.key,
      component: component.body.key ?? 'part',
      api: api.body.key,
      apikey: key.body?.key ?? key.body?.public_key ?? 'none',
      code: 'de',
      alias: 'fuzzed',
      prefix: 'site',
    };
  });
  after(async () => {
    process.stdout.write(`      fuzz figures: ${JSON.stringify(figures)}\n`);
    await s?.stop();
  });

  const check = async (base: string, request: FuzzRequest, writes: boolean): Promise<void> => {
    const head = writes ? await events.headPosition() : '';
    const answer = await send(base, request);
    if (answer === null) return;
    figures.sent++;
    figures.statuses[answer.status] = (figures.statuses[answer.status] ?? 0) + 1;
    if (answer.status >= 500) figures.serverErrors++;
    expect(answer.status, `${request.method} ${request.path} ${request.body?.slice(0, 200)} → ${answer.text.slice(0, 300)}`).to.be.lessThan(500);
    if (answer.status < 400) {
      figures.accepted++;
      return;
    }
    figures.refused++;
    expectEnvelope(request, answer);
    if (writes) expect(await events.headPosition(), `a refused ${request.method} ${request.path} wrote nothing`).to.equal(head);
  };

  it(`answers ${Math.round(RUNS * 0.8)} generated management requests below 500, refusals in the envelope, writing nothing when refused`, async () => {
    await fc.assert(
      fc.asyncProperty(managementRequest(fixtures, s.token), (request) => check(s.base, request, true)),
      { numRuns: Math.round(RUNS * 0.8), seed: SEED, endOnFailure: true },
    );
  });

  it(`answers ${Math.round(RUNS * 0.2)} generated delivery requests below 500, refusals in the envelope`, async () => {
    const base = s.service.urls.delivery;
    await fc.assert(fc.asyncProperty(deliveryRequest(fixtures), (request) => check(base, request, false)), {
      numRuns: Math.round(RUNS * 0.2),
      seed: SEED,
      endOnFailure: true,
    });
  });

  it('fuzzes real routes: no listed route answers route_not_found with real keys', async () => {
    for (const [method, template] of MANAGEMENT_ROUTES) {
      if (template.includes('/no/such/')) continue;
      let path = template.replace(/\{(\w+)\}/g, (_, name: string) => fixtures[name] ?? 'missing');
      if (method === 'DELETE' && /\}\/$/.test(template)) path = path.replace(/[^/]+\/$/, 'zz-nothing/');
      const r = await s.api(method, path, method === 'GET' ? undefined : {});
      expect(r.body?.error_code ?? null, `${method} ${template}`).to.not.equal('route_not_found');
    }
  });

  it('is still serving writes and reads after the fuzzing', async () => {
    const created = await s.api('POST', v1(s, `/collections/${fixtures.collection}/resources/`), { data: { title: 'after fuzz' } });
    expect(created.status).to.be.oneOf([201, 202]);
    expect(s.service.projections.status().every((p) => !p.stopped), JSON.stringify(s.service.projections.status())).to.equal(true);
    expect(figures.serverErrors).to.equal(0);
  });
});
