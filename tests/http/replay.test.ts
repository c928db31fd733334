import { expect } from 'chai';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

type Line = { position: string; stream: string; revision: number; id: string; type: string; data: Record<string, unknown>; metadata: Record<string, unknown> };

/** A replay read to its end (NDJSON) with the bootstrap token. */
async function ndjson(s: TestService, path: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string | null; lines: Line[] }> {
  const response = await fetch(`${s.base}${path}`, { headers: { authorization: `Bearer ${s.token}`, ...headers } });
  const text = await response.text();
  const lines = response.status === 200 ? text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line) : [];
  return { status: response.status, type: response.headers.get('content-type'), lines };
}

/** Reads server-sent events until `count` arrived, then drops the connection. */
async function sse(s: TestService, path: string, count: number, headers: Record<string, string> = {}, whileOpen?: () => Promise<void>) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 10_000);
  const response = await fetch(`${s.base}${path}`, { headers: { authorization: `Bearer ${s.token}`, accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: { id: string; data: Line }[] = [];
  let buffer = '';
  let opened = false;
  try {
    while (events.length < count) {
      if (!opened && whileOpen) {
        opened = true;
        void whileOpen();
      }
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (id && data) events.push({ id, data: JSON.parse(data) as Line });
      }
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return { type: response.headers.get('content-type'), events };
}

describe('event replay for auditors (NDJSON and server-sent events)', () => {
  let s: TestService;
  let articles: string;
  let notes: string;
  let resource: string;

  before(async () => {
    s = await startTestService();
    articles = await collectionWithSchema(s, 'articles');
    notes = await collectionWithSchema(s, 'notes');
    const r = await s.api('POST', v1(s, `/collections/${articles}/resources/`), { data: { title: 'One' } });
    expect(r.status).to.equal(201);
    resource = r.body.key;
    await s.api('POST', v1(s, `/collections/${notes}/resources/`), { data: { title: 'Note' } });
  });
  after(async () => s?.stop());

  it('replays the environment in global order as NDJSON, each line a raw stored event', async () => {
    const r = await ndjson(s, v1(s, '/events/stream/'));
    expect(r.status).to.equal(200);
    expect(r.type).to.match(/^application\/x-ndjson/);
    const positions = r.lines.map((l) => l.position);
    expect(positions).to.deep.equal([...positions].sort());
    expect(new Set(positions).size).to.equal(positions.length);
    expect(r.lines[0]).to.include({ type: 'EnvironmentCreated' });
    expect(r.lines.map((l) => l.type)).to.include.members(['CollectionCreated', 'ResourceCreated', 'RevisionCreated']);
    const created = r.lines.find((l) => l.type === 'ResourceCreated' && l.data.key === resource)!;
    expect(created).to.include({ stream: `resource-${resource}`, revision: 0 });
    expect(created.metadata).to.have.property('timestamp');
    expect(r.lines.every((l) => l.type === 'EnvironmentCreated' || l.data.env === s.env)).to.equal(true);
  });

  it('resumes after a position and stops after limit events', async () => {
    const all = (await ndjson(s, v1(s, '/events/stream/'))).lines;
    const from = all[2]!.position;
    const rest = await ndjson(s, v1(s, `/events/stream/?from=${Number(from)}&limit=3`));
    expect(rest.lines.map((l) => l.id)).to.deep.equal(all.slice(3, 6).map((l) => l.id));
  });

  it("replays one stream, one collection's resources, a stream prefix and chosen event types", async () => {
    const stream = await ndjson(s, v1(s, `/events/stream/?stream=resource-${resource}`));
    expect(stream.lines.map((l) => [l.stream, l.revision])).to.deep.equal(stream.lines.map((_l, i) => [`resource-${resource}`, i]));
    expect(stream.lines.length).to.be.greaterThan(1);

    const collection = await ndjson(s, v1(s, `/events/stream/?collection=${articles}`));
    expect(collection.lines.length).to.be.greaterThan(0);
    expect(collection.lines.every((l) => l.stream.startsWith('resource-') && l.data.folder === articles)).to.equal(true);

    const prefix = await ndjson(s, v1(s, '/events/stream/?stream_prefix=schema-'));
    expect(prefix.lines.length).to.be.greaterThan(0);
    expect(prefix.lines.every((l) => l.stream.startsWith('schema-'))).to.equal(true);

    const types = await ndjson(s, v1(s, '/events/stream/?event_type=ResourceCreated,CollectionCreated'));
    expect(types.lines.map((l) => l.type).sort()).to.deep.equal(['CollectionCreated', 'CollectionCreated', 'ResourceCreated', 'ResourceCreated']);
  });

  it('streams server-sent events with the position as id, continuing live with new appends', async () => {
    const history = (await ndjson(s, v1(s, `/events/stream/?collection=${articles}`))).lines;
    const got = await sse(s, v1(s, `/events/stream/?collection=${articles}`), history.length + 1, {}, async () => {
      await s.api('POST', v1(s, `/collections/${articles}/resources/`), { data: { title: 'Live' } });
    });
    expect(got.type).to.match(/^text\/event-stream/);
    expect(got.events.slice(0, history.length).map((e) => e.id)).to.deep.equal(history.map((l) => l.position));
    const live = got.events[history.length]!;
    expect(live.data).to.include({ type: 'ResourceCreated' });
    expect(live.data.data).to.include({ folder: articles });
    expect(live.id).to.equal(live.data.position);
  });

  it('follows one stream: its history after from, then its new events live', async () => {
    const history = (await ndjson(s, v1(s, `/events/stream/?stream=resource-${resource}`))).lines;
    const path = v1(s, `/events/stream/?stream=resource-${resource}&from=${history[0]!.position}&follow=true&format=sse`);
    const got = await sse(s, path, history.length, {}, async () => {
      await s.api('POST', v1(s, `/collections/${articles}/resources/${resource}/revisions/`), { data: { title: 'Draft' } });
    });
    expect(got.events.slice(0, history.length - 1).map((e) => e.data.id)).to.deep.equal(history.slice(1).map((l) => l.id));
    expect(got.events[history.length - 1]!.data).to.include({ type: 'RevisionCreated', stream: `resource-${resource}`, revision: history.length });
  });

  it('resumes a server-sent event stream from Last-Event-ID', async () => {
    const all = (await ndjson(s, v1(s, '/events/stream/?event_type=ResourceCreated'))).lines;
    const got = await sse(s, v1(s, '/events/stream/?event_type=ResourceCreated&from=0'), all.length - 1, { 'last-event-id': all[0]!.position });
    expect(got.events.map((e) => e.data.id)).to.deep.equal(all.slice(1).map((l) => l.id));
  });

  it('replays the organization at /v1/global-events/stream/, organization events included', async () => {
    const r = await ndjson(s, '/v1/global-events/stream/?limit=5');
    expect(r.status).to.equal(200);
    expect(r.lines.length).to.equal(5);
    expect(r.lines[0]).to.include({ type: 'OrganizationCreated' });
    const env = await ndjson(s, `/v1/global-events/stream/?stream=environment-${s.env}`);
    expect(env.lines.map((l) => l.type)).to.deep.equal(['EnvironmentCreated']);
  });

  it('refuses bad parameters with 422 validation_error and writes no stream', async () => {
    for (const query of ['from=abc', 'from=-1', 'limit=0', 'limit=x', 'format=xml', 'follow=maybe', 'event_type=Bad%20Type', 'stream=', 'unknown=1', 'from=1&from=2']) {
      const r = await s.api('GET', v1(s, `/events/stream/?${query}`));
      expect(r.status, query).to.equal(422);
      expect(r.body).to.include({ error_code: 'validation_error' });
      expect(r.body).to.have.all.keys('message', 'error_code', 'detail');
    }
    const header = await s.api('GET', v1(s, '/events/stream/'), undefined, { 'last-event-id': 'nope' });
    expect(header.status).to.equal(422);
    const global = await s.api('GET', '/v1/global-events/stream/?limit=-5');
    expect(global.status).to.equal(422);
  });

  it('answers 403 permission_denied to a caller who is not an organization administrator, 401 without credentials, 404 for an unknown environment', async () => {
    const key = await s.api('POST', v1(s, '/permissions/management-api/api-keys/'), { description: 'auditor?' });
    const token = `Bearer ${key.body.public_key}:${key.body.secret_key}`;
    // A management key replays its own environment (what its role may read, docs/decisions/0160), never the organization.
    const own = await ndjson(s, v1(s, '/events/stream/?event_type=ApiKeyCreated'), { authorization: token });
    expect(own.status).to.equal(200);
    expect(own.lines.map((l) => l.data.key)).to.include(key.body.key);
    expect(own.lines.every((l) => l.data.secret_hash === null)).to.equal(true);
    const admin = await ndjson(s, v1(s, '/events/stream/?event_type=ApiKeyCreated'));
    expect(admin.lines.every((l) => typeof l.data.secret_hash === 'string')).to.equal(true);
    for (const path of ['/v1/global-events/stream/', '/v1/global-events/verify/']) {
      const r = await s.api('GET', path, undefined, { authorization: token });
      expect(r.status, path).to.equal(403);
      expect(r.body.error_code).to.equal('permission_denied');
    }
    const anonymous = await fetch(`${s.base}${v1(s, '/events/stream/')}`);
    expect(anonymous.status).to.equal(401);
    const unknown = await s.api('GET', '/v1/nosuchenv/events/stream/');
    expect(unknown.status).to.equal(404);
  });

  it('verifies the hash chain of the log at /v1/global-events/verify/', async () => {
    const r = await s.api('GET', '/v1/global-events/verify/');
    expect(r.status).to.equal(200);
    expect(r.body).to.include({ verified: true, first_break: null });
    expect(r.body.checked).to.be.greaterThan(10);
    expect(r.body.head_hash).to.match(/^[0-9a-f]{64}$/);
  });
});
