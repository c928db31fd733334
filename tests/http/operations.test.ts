import { expect } from 'chai';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { loadConfig } from '../../infra/config.js';
import { startService } from '../../infra/service.js';
import { eventually, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';
import { tempDir } from '../support/temp.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('HTTP: operations endpoints (healthz, readyz, metrics, request ids)', function () {
  this.timeout(60_000);
  let s: TestService;

  before(async () => {
    s = await startTestService({ READY_MAX_LAG: '0', WAIT_TIMEOUT_MS: '300' });
  });
  after(() => s.stop());

  for (const side of ['management', 'delivery'] as const) {
    const origin = () => (side === 'management' ? s.base : s.service.urls.delivery);

    it(`answers GET /healthz on the ${side} interface with 200 {status: ok}, without credentials`, async () => {
      const r = await s.get(`${origin()}/healthz`);
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal({ status: 'ok' });
    });

    it(`answers GET /readyz on the ${side} interface with 200 and every projection at the head, lag 0`, async () => {
      const r = await s.get(`${origin()}/readyz`);
      expect(r.status).to.equal(200);
      expect(r.body.status).to.equal('ready');
      expect(r.body.bootstrapped).to.equal(true);
      expect(r.body.event_store.reachable).to.equal(true);
      expect(r.body.event_store.head).to.be.a('string').and.not.equal('');
      const names = s.service.projections.runners.map((runner) => runner.name);
      expect(names).to.include.members(['read-models', 'revisions']);
      expect(r.body.projections.map((p: { name: string }) => p.name)).to.include.members(names);
      for (const p of r.body.projections) {
        expect(p).to.include({ position: r.body.event_store.head, lag: 0, caught_up: true, stopped: false, error: null });
      }
    });
  }

  it("sets helmet's headers on every answer of both interfaces, errors included, with a content security policy on management only", async () => {
    for (const url of [`${s.base}/healthz`, `${s.base}/v1/nope`, `${s.service.urls.delivery}/healthz`, `${s.service.urls.delivery}/nope`]) {
      const r = await s.get(url);
      expect(r.headers.get('x-content-type-options'), url).to.equal('nosniff');
      expect(r.headers.get('x-frame-options'), url).to.equal('SAMEORIGIN');
      expect(r.headers.get('strict-transport-security'), url).to.equal('max-age=31536000; includeSubDomains');
      expect(r.headers.get('cross-origin-resource-policy'), url).to.equal('same-origin');
      expect(r.headers.get('x-powered-by'), url).to.equal(null);
      const csp = r.headers.get('content-security-policy');
      if (url.startsWith(s.base)) expect(csp, url).to.include("default-src 'self'");
      else expect(csp, url).to.equal(null);
    }
  });

  it('answers /readyz 503 naming the projection that is behind by more than READY_MAX_LAG, and 200 once it caught up', async () => {
    const runner = s.service.projections.runner('read-models');
    runner?.pause();
    try {
      const write = await s.api('POST', v1(s, '/locales/'), { name: 'German', code: 'de' });
      expect(write.status).to.be.oneOf([201, 202]);
      const r = await s.get(`${s.base}/readyz`);
      expect(r.status).to.equal(503);
      expect(r.body.status).to.equal('not_ready');
      const behind = r.body.projections.find((p: { name: string }) => p.name === 'read-models');
      expect(behind).to.include({ caught_up: false, stopped: false });
      expect(behind.lag).to.be.at.least(1);
      expect(behind.position < r.body.event_store.head).to.equal(true);
    } finally {
      runner?.resume();
    }
    const ready = await eventually(() => s.get(`${s.base}/readyz`), (r) => r.status === 200);
    expect(ready.body.status).to.equal('ready');
  });

  it('counts requests per interface, route template and status, times appends, and reports projection lag at /metrics', async () => {
    await s.api('GET', v1(s, '/locales/'));
    await s.api('GET', v1(s, '/locales/nope/'));
    await s.get(`${s.service.urls.delivery}/${s.env}/nope/x/`);
    const r = await fetch(`${s.base}/metrics`);
    expect(r.status).to.equal(200);
    expect(r.headers.get('content-type')).to.match(/^text\/plain/);
    const text = await r.text();
    expect(text).to.match(/http_requests_total\{interface="management",method="GET",route="\/v1\/:env\/locales\/",status="200"\} [1-9]/);
    expect(text).to.match(/http_requests_total\{interface="management",method="GET",route="\/v1\/:env\/locales\/:code\/",status="404"\} [1-9]/);
    expect(text).to.match(/http_requests_total\{interface="delivery",method="GET",route="\/:env\/:prefix\/\*segments",status="404"\} [1-9]/);
    expect(text).to.match(/http_request_duration_seconds_bucket\{le="0.1",interface="management",method="GET",route="\/v1\/:env\/locales\/",status="200"\}/);
    expect(text).to.match(/eventstore_append_duration_seconds_count\{outcome="ok"\} [1-9]/);
    expect(text, text.split("\n").filter((l) => l.startsWith("projection")).join("\n")).to.match(/projection_lag_events\{projection="read-models"\} 0/);
    expect(text).to.match(/projection_stopped\{projection="revisions"\} 0/);
    expect(text).to.match(/cache_lookups_total\{cache="aggregate_state",result="(hit|miss)"\} [1-9]/);
    expect(text).to.include('process_cpu_seconds_total');
    expect(text).not.to.include(s.env);
  });

  it('labels a request that matches no route as unmatched, never by its raw path', async () => {
    await s.api('GET', '/nowhere/at/all');
    const text = await (await fetch(`${s.base}/metrics`)).text();
    expect(text).to.match(/route="unmatched",status="404"/);
    expect(text).not.to.include('nowhere');
  });

  it('gives every response an X-Request-Id, keeps a plain id the caller sent, and replaces an unsafe one', async () => {
    const fresh = await s.api('GET', v1(s, '/locales/'));
    expect(fresh.headers.get('x-request-id')).to.match(UUID);
    const kept = await s.api('GET', v1(s, '/locales/'), undefined, { 'x-request-id': 'trace-42.a:b' });
    expect(kept.headers.get('x-request-id')).to.equal('trace-42.a:b');
    const replaced = await s.api('GET', v1(s, '/locales/'), undefined, { 'x-request-id': 'a b<script>' });
    expect(replaced.headers.get('x-request-id')).to.match(UUID);
    const delivery = await s.get(`${s.service.urls.delivery}/healthz`);
    expect(delivery.headers.get('x-request-id')).to.match(UUID);
  });

  it('puts the request id in the message of an error body and keeps the envelope to message, error_code, detail', async () => {
    const r = await s.api('GET', v1(s, '/locales/nope/'), undefined, { 'x-request-id': 'err-1' });
    expect(r.status).to.equal(404);
    expect(r.body).to.have.all.keys('message', 'error_code', 'detail');
    expect(r.body.message).to.match(/\(request id: err-1\)$/);
    const unauthenticated = await s.get(`${s.base}${v1(s, '/locales/')}`);
    expect(unauthenticated.status).to.equal(401);
    expect(unauthenticated.body.message).to.include(`(request id: ${unauthenticated.headers.get('x-request-id')})`);
    const delivery = await s.get(`${s.service.urls.delivery}/${s.env}/nope/x/`);
    expect(delivery.status).to.equal(404);
    expect(delivery.body.message).to.include(`(request id: ${delivery.headers.get('x-request-id')})`);
  });
});

describe('Operations: request logs and graceful shutdown', function () {
  this.timeout(60_000);

  it('logs one pino line per request with its req_id, method, route URL and status, and no credentials', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const dir = tempDir();
    const service = await startService(loadConfig({ DATA_DIR: dir, PORT: '0', DELIVERY_PORT: '0', HOST: '127.0.0.1' }), pino({ level: 'info', base: undefined }, sink));
    try {
      const token = service.bootstrap?.management_token ?? '';
      const r = await fetch(`${service.urls.base}/v1/${service.bootstrap?.environment}/locales/`, { headers: { authorization: `Bearer ${token}`, 'x-request-id': 'log-me-1' } });
      expect(r.status).to.equal(200);
      const line = await eventually(async () => lines.find((l) => l.req_id === 'log-me-1'), (l) => l !== undefined);
      expect(line).to.deep.include({ interface: 'management', req: { method: 'GET', url: `/v1/${service.bootstrap?.environment}/locales/` }, res: { status: 200 } });
      expect(JSON.stringify(lines)).not.to.include(token);
    } finally {
      await service.stop();
    }
  });

  it('on stop answers the requests in flight, refuses new connections, then commits the projections and closes', async () => {
    const dir = tempDir();
    const s = await startTestService({ WAIT_TIMEOUT_MS: '800' }, dir);
    const runner = s.service.projections.runner('read-models');
    runner?.pause();
    const inFlight = s.api('POST', v1(s, '/locales/'), { name: 'French', code: 'fr' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stopped = s.stop();
    const answered = await inFlight;
    expect(answered.status).to.equal(202);
    expect(answered.body).to.include({ code: 'fr' });
    await stopped;
    let refused = false;
    await fetch(`${s.base}/healthz`).catch(() => (refused = true));
    expect(refused).to.equal(true);
    const again = await startTestService({}, dir);
    try {
      const locale = await again.api('GET', `/v1/${again.env}/locales/fr/`);
      expect(locale.status).to.equal(200);
      expect(locale.body).to.include({ code: 'fr', name: 'French' });
    } finally {
      await again.stop();
    }
  });
});
