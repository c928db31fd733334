import { expect } from 'chai';
import fc from 'fast-check';
import type { EventStore } from '../../commands/ports.js';
import { collectionWithSchema, v1 } from '../support/content.js';
import { agentRequest, type ToolSchema } from '../support/fuzz-agent.js';
import { deliveryRequest, fill, managementParts, managementRequest, managementRoutes, onRoute, type Fixtures, type FuzzRequest, type ManagementParts, type RouteTemplate } from '../support/fuzz-requests.js';
import { startTestService, type TestService } from '../support/service.js';

/** `npm run fuzz` raises this to 100,000; `npm test` sends a few thousand. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
/** Generated requests per management route, on top of the random walk, so that no route is left out. */
const PER_ROUTE = Math.max(2, Math.round(RUNS / 1000));
/** Requests in flight at once in the concurrent pass. */
const PARALLEL = 8;
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

type Answer = { status: number; text: string };

/** The agent endpoint of a delivery API: `/{env}/{prefix}/_mcp`. */
const AGENT = /^\/[^/?]+\/[^/?]+\/_mcp(\?|$)/;

async function send(base: string, request: FuzzRequest): Promise<Answer | null> {
  try {
    const response = await fetch(`${base}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
    const type = response.headers.get('content-type') ?? '';
    // The agent endpoint answers a POST as a stream of one or more messages that then ends: read them.
    if (response.ok && request.method === 'POST' && type.includes('event-stream') && AGENT.test(request.path)) return { status: response.status, text: await response.text() };
    // An accepted event stream (replay, follow) may never end: its status is all that is checked.
    if (response.ok && /x-ndjson|event-stream/.test(type)) {
      await response.body?.cancel();
      return { status: response.status, text: '' };
    }
    return { status: response.status, text: await response.text() };
  } catch (error) {
    // fetch itself refuses some generated inputs (a header value it cannot send): nothing went out.
    if (error instanceof TypeError && !/fetch failed/.test(error.message)) return null;
    throw error;
  }
}

/** The JSON-RPC messages of an agent answer (one JSON body, or server-sent events). */
function messagesOf(text: string): unknown[] {
  if (text.startsWith('{') || text.startsWith('[')) return [JSON.parse(text)].flat();
  return text.split('\n').filter((line) => line.startsWith('data: ')).map((line) => JSON.parse(line.slice(6)) as unknown);
}

/** A tool call the agent endpoint answered: its refusal (the replayed REST answer) must not be a 5xx either. */
function expectToolsBelow500(request: FuzzRequest, answer: Answer): void {
  for (const message of messagesOf(answer.text)) {
    const result = (message as { result?: { isError?: boolean; content?: { text?: string }[] } }).result;
    if (result?.isError !== true) continue;
    const text = result.content?.[0]?.text ?? '';
    const status = /^\{/.test(text) ? (JSON.parse(text) as { status?: unknown }).status : undefined;
    expect(typeof status === 'number' ? status : 0, `${request.body?.slice(0, 200)} → ${text.slice(0, 300)}`).to.be.lessThan(500);
  }
}

/** A refusal is `{message, error_code, detail}`; the agent endpoint's protocol errors are JSON-RPC errors. */
function expectEnvelope(request: FuzzRequest, answer: Answer): void {
  const where = `${request.method} ${request.path} → ${answer.status} ${answer.text.slice(0, 300)}`;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    expect.fail(`not JSON: ${where}`);
  }
  if (AGENT.test(request.path) && (body as { jsonrpc?: unknown })?.jsonrpc === '2.0') {
    expect((body as { error?: { code?: unknown } }).error?.code, where).to.be.a('number');
    return;
  }
  expect(body, where).to.be.an('object').that.has.all.keys('message', 'error_code', 'detail');
  const { message, error_code } = body as { message: unknown; error_code: unknown };
  expect(message, where).to.be.a('string');
  expect(error_code, where).to.be.a('string');
}

/** Initializes an agent session and returns its id. */
async function openAgentSession(url: string, authorization: string | undefined): Promise<string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (authorization) headers.authorization = authorization;
  const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } };
  const opened = await fetch(url, { method: 'POST', headers, body: JSON.stringify(init) });
  await opened.text();
  const id = opened.headers.get('mcp-session-id');
  expect(opened.status, 'agent session').to.equal(200);
  expect(id).to.be.a('string');
  const ready = await fetch(url, { method: 'POST', headers: { ...headers, 'mcp-session-id': id! }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  await ready.text();
  return id!;
}

/** The tools an agent session lists, with their argument schemas. */
async function listTools(url: string, authorization: string, session: string): Promise<ToolSchema[]> {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization, 'mcp-session-id': session };
  const listed = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }) });
  const [message] = messagesOf(await listed.text()) as { result: { tools: ToolSchema[] } }[];
  return message!.result.tools;
}

describe('fuzz: generated bad requests on every endpoint', function () {
  this.timeout(60_000 + RUNS * 50);
  let s: TestService;
  let events: EventStore;
  let fixtures: Fixtures;
  let credentials: string[];
  let routes: RouteTemplate[];
  const sessions: string[] = [];
  let tools: ToolSchema[];
  const figures = { sent: 0, refused: 0, accepted: 0, serverErrors: 0, refusedWithWrite: 0, toolAnswers: 0, statuses: {} as Record<number, number>, codes: {} as Record<string, number> };

  before(async () => {
    // A resource limit, so that creates and deletes go through the slot reservations too.
    s = await startTestService({ WAIT_TIMEOUT_MS: '2000', PLAN: 'pro', RESOURCE_LIMIT: '100000' }, undefined, { wrapEventStore: (store) => (events = store) });
    const collection = await collectionWithSchema(s, 'fuzzed');
    const resource = await s.api('POST', v1(s, `/collections/${collection}/resources/`), { data: { title: 'seed' } });
    const revision = await s.api('POST', v1(s, `/collections/${collection}/resources/${resource.body.key}/revisions/`), { data: { title: 'draft' } });
    const draft = await s.api('POST', v1(s, `/collections/${collection}/model/versions/`), {});
    await s.api('POST', v1(s, `/collections/${collection}/model/versions/${draft.body.key}/schema/tree/`), { key: 'title', type: 'string' });
    const component = await s.api('POST', v1(s, '/components/'), { name: 'Part' });
    const api = await s.api('POST', v1(s, '/api/'), { name: 'Site', prefix: 'site', mcp_enabled: true });
    const connected = await s.api('POST', v1(s, `/api/${api.body.key}/collections/`), { folder: collection, allowed_methods: ['get_many', 'get_one', 'create', 'update'] });
    const privateApi = await s.api('POST', v1(s, '/api/'), { name: 'Members', prefix: 'members', is_auth_required: true, cors_origins: ['https://fuzz.example'] });
    const privateConnected = await s.api('POST', v1(s, `/api/${privateApi.body.key}/collections/`), { folder: collection, allowed_methods: ['get_many', 'get_one', 'create', 'update'] });
    await s.api('POST', v1(s, '/locales/'), { code: 'de', name: 'German' });
    const key = await s.api('POST', v1(s, '/permissions/management-api/api-keys/'), { description: 'fuzz' });
    const role = await s.api('POST', v1(s, '/permissions/management-api/roles/'), { name: 'fuzz' });
    const deliveryRole = await s.api('POST', v1(s, '/permissions/delivery-api/roles/'), { name: 'fuzz' });
    const permission = await s.api('POST', v1(s, `/permissions/delivery-api/roles/${deliveryRole.body.key}/permissions/`), { content_type: 'flux-apis', actions: ['read', 'create', 'update'], all_objects: true, objects: [] });
    const deliveryKey = await s.api('POST', v1(s, '/permissions/delivery-api/api-keys/'), { description: 'fuzz', role: deliveryRole.body.key });
    const bearer = await s.api('POST', v1(s, `/permissions/delivery-api/api-keys/${deliveryKey.body.key}/bearer-token/`));
    // A key without a role may do everything, whatever the fuzzing does to the role above.
    const unrestricted = await s.api('POST', v1(s, '/permissions/delivery-api/api-keys/'), { role: null });
    // The management fuzzing changes, reissues and deletes what its keys name: its own API, delivery role and key, not the delivery fuzzing's.
    const managedApi = await s.api('POST', v1(s, '/api/'), { name: 'Managed', prefix: 'managed' });
    const managedConnection = await s.api('POST', v1(s, `/api/${managedApi.body.key}/collections/`), { folder: collection, allowed_methods: ['get_many'] });
    const managedRole = await s.api('POST', v1(s, '/permissions/delivery-api/roles/'), { name: 'managed' });
    const managedKey = await s.api('POST', v1(s, '/permissions/delivery-api/api-keys/'), { description: 'managed', role: managedRole.body.key });
    const org = (await s.api('GET', '/organizations/')).body[0].key;
    const project = (await s.api('GET', `/organizations/${org}/projects/`)).body.results[0].key;
    // Toggles and protection land on a second environment, so that the fuzzed one stays writable.
    const environment = await s.api('POST', `/organizations/${org}/projects/${project}/environments/`, { name: 'Fuzzed' });
    for (const [name, r] of Object.entries({ resource, revision, draft, component, api, connected, privateApi, privateConnected, permission, key, role, deliveryRole, deliveryKey, bearer, unrestricted, managedApi, managedConnection, managedRole, managedKey, environment })) {
      expect(r.status, `fixture ${name}: ${JSON.stringify(r.body)}`).to.be.oneOf([200, 201, 202]);
    }
    fixtures = {
      env: s.env,
      collection,
      resource: resource.body.key,
      revision: revision.body.key,
      // A webhook delivery's id (none exists: its routes answer 404).
      id: revision.body.key,
      version: draft.body.key,
      component: component.body.key,
      api: managedApi.body.key,
      key: key.body.key,
      role: role.body.key,
      delivery_key: managedKey.body.key,
      delivery_role: managedRole.body.key,
      org,
      project,
      environment: environment.body.key,
      plan: 'pro',
      code: 'de',
      alias: 'fuzzed',
      prefix: 'site',
      private_prefix: 'members',
    };
    credentials = [`Simple ${deliveryKey.body.public_key}:${deliveryKey.body.secret_key}`, `Bearer ${bearer.body.bearer_token}`, `Simple ${unrestricted.body.public_key}:${unrestricted.body.secret_key}`];
    routes = managementRoutes(s.service.apps.management);
    // Agent sessions to fuzz the tools in: anonymous and with the fixture key (Simple).
    const agentUrl = `${s.service.urls.delivery}/${s.env}/site/_mcp`;
    for (const authorization of [undefined, credentials[0]!]) sessions.push(await openAgentSession(agentUrl, authorization));
    tools = await listTools(agentUrl, credentials[0]!, sessions[1]!);
    expect(tools.map((t) => t.name)).to.include.members(['query_records', 'create_record', 'update_record']);
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
      if (AGENT.test(request.path) && request.method === 'POST' && answer.text !== '') {
        figures.toolAnswers++;
        expectToolsBelow500(request, answer);
      }
      return;
    }
    figures.refused++;
    if (request.method === 'HEAD') {
      expect(answer.text, `HEAD ${request.path}: no body`).to.equal('');
      return;
    }
    expectEnvelope(request, answer);
    const code = (JSON.parse(answer.text) as { error_code?: string }).error_code ?? 'jsonrpc';
    figures.codes[code] = (figures.codes[code] ?? 0) + 1;
    if (!writes) return;
    const after = await events.headPosition();
    if (after !== head) figures.refusedWithWrite++;
    expect(after, `a refused ${request.method} ${request.path} ${request.body?.slice(0, 200)} → ${answer.text.slice(0, 300)} wrote nothing`).to.equal(head);
  };

  it(`answers ${Math.round(RUNS * 0.8)} generated management requests below 500, refusals in the envelope, writing nothing when refused`, async () => {
    await fc.assert(
      fc.asyncProperty(managementRequest(routes, fixtures, s.token), (request) => check(s.base, request, true)),
      { numRuns: Math.round(RUNS * 0.8), seed: SEED, endOnFailure: true },
    );
  });

  it(`answers ${Math.round(RUNS * 0.2)} generated delivery requests below 500, refusals in the envelope, writing nothing when refused`, async () => {
    const base = s.service.urls.delivery;
    await fc.assert(fc.asyncProperty(deliveryRequest(fixtures, credentials, sessions), (request) => check(base, request, true)), {
      numRuns: Math.round(RUNS * 0.2),
      seed: SEED,
      endOnFailure: true,
    });
  });

  it(`fuzzes every route of the management route table ${PER_ROUTE} times more, each key filled with a real one`, async () => {
    expect(routes.length).to.be.greaterThan(150);
    const samples = fc.sample(managementParts(fixtures, s.token), { numRuns: routes.length * PER_ROUTE, seed: SEED ?? 16 });
    for (const route of routes) {
      const [method, template] = route;
      if (!template.includes('/no/such/')) {
        for (const name of template.match(/\{(\w+)\}/g) ?? []) expect(fill(name, fixtures), `${method} ${template}: no fixture for ${name}`).to.not.equal('missing');
        let path = fill(template, fixtures);
        if (method === 'DELETE' && /\}\/$/.test(template)) path = path.replace(/[^/]+\/$/, 'zz-nothing/');
        const headers = { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' };
        const answer = await send(s.base, { method, path, headers, body: method === 'GET' ? undefined : '{}' });
        expect(answer?.text ?? '', `${method} ${template}`).to.not.include('route_not_found');
      }
      for (const parts of samples.splice(0, PER_ROUTE)) await check(s.base, onRoute(route, parts as ManagementParts), true);
    }
  });

  it(`answers ${Math.round(RUNS * 0.05)} generated agent calls, mostly in live sessions, below 500, the tools' refusals included`, async () => {
    const base = s.service.urls.delivery;
    // Fresh sessions: the delivery fuzzing may have closed the first ones (DELETE _mcp).
    const agentUrl = `${base}/${s.env}/site/_mcp`;
    const live = [await openAgentSession(agentUrl, undefined), await openAgentSession(agentUrl, credentials[0]!)];
    await fc.assert(fc.asyncProperty(agentRequest(fixtures, credentials, live, tools), (request) => check(base, request, true)), {
      numRuns: Math.round(RUNS * 0.05),
      seed: SEED,
      endOnFailure: true,
    });
    expect(figures.toolAnswers, 'agent calls answered').to.be.greaterThan(0);
  });

  it(`answers ${Math.round(RUNS * 0.2)} generated requests sent ${PARALLEL} at a time below 500, refusals in the envelope`, async () => {
    // Concurrent requests race on the same streams and read models; whether a refused one wrote is not attributable here.
    const delivery = s.service.urls.delivery;
    const mixed = fc.oneof(
      managementRequest(routes, fixtures, s.token).map((request) => [s.base, request] as const),
      deliveryRequest(fixtures, credentials, sessions).map((request) => [delivery, request] as const),
    );
    const batches = fc.sample(fc.array(mixed, { minLength: PARALLEL, maxLength: PARALLEL }), { numRuns: Math.round((RUNS * 0.2) / PARALLEL), seed: SEED });
    for (const batch of batches) await Promise.all(batch.map(([base, request]) => check(base, request, false)));
  });

  it('is still serving writes and reads after the fuzzing', async () => {
    const created = await s.api('POST', v1(s, `/collections/${fixtures.collection}/resources/`), { data: { title: 'after fuzz' } });
    expect(created.status).to.be.oneOf([201, 202]);
    expect(s.service.projections.status().every((p) => !p.stopped), JSON.stringify(s.service.projections.status())).to.equal(true);
    expect(figures.serverErrors).to.equal(0);
  });
});
