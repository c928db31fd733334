import { expect } from 'chai';
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { windowOf } from '../../domain/billing.js';
import { loadConfig } from '../../infra/config.js';
import { errorMiddleware } from '../../infra/http/errors.js';
import { managementRateLimit, RequestMeter } from '../../infra/http/rate-limit.js';
import type { ReadStore } from '../../projections/ports.js';
import { startTestService, type TestService } from '../support/service.js';

const many = (s: TestService, n: number, path: string) => Promise.all(Array.from({ length: n }, () => s.api('GET', path)));

describe('the per-organization requests-per-minute limit of the management interface', () => {
  it('reads RATE_LIMIT_PER_MINUTE: the plan value by default, off, or a positive number', () => {
    expect(loadConfig({}).rateLimit).to.equal('plan');
    expect(loadConfig({ RATE_LIMIT_PER_MINUTE: 'off' }).rateLimit).to.equal('off');
    expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '30' }).rateLimit).to.equal(30);
    for (const bad of ['0', '-1', '2.5', 'many']) expect(() => loadConfig({ RATE_LIMIT_PER_MINUTE: bad }), bad).to.throw(/RATE_LIMIT_PER_MINUTE/);
  });

  describe('at the free plan\'s 120 requests per minute', () => {
    let s: TestService;
    before(async () => {
      s = await startTestService({ PLAN: 'free', RATE_LIMIT_PER_MINUTE: 'plan' });
    });
    after(async () => s?.stop());

    it('lets exactly 120 of 130 concurrent requests through and answers the rest 429 rate_limited with Retry-After', async () => {
      const replies = await many(s, 130, `/v1/${s.env}/locales/`);
      expect(replies.filter((r) => r.status === 200)).to.have.length(120);
      const limited = replies.filter((r) => r.status === 429);
      expect(limited).to.have.length(10);
      for (const r of limited) {
        expect(r.body.error_code).to.equal('rate_limited');
        expect(r.body.detail.limit).to.equal(120);
        const retryAfter = Number(r.headers.get('retry-after'));
        expect(Number.isInteger(retryAfter)).to.equal(true);
        expect(retryAfter).to.be.within(1, 60);
      }
      // Every interface of the organization shares the budget, writes and organization routes included.
      expect((await s.api('POST', `/v1/${s.env}/locales/`, { name: 'de', code: 'de' })).status).to.equal(429);
      expect((await s.api('GET', '/organizations/')).status).to.equal(429);
      // Credentials come first: an unauthenticated request is still 401.
      expect((await s.api('GET', '/organizations/', undefined, { authorization: 'Bearer x' })).status).to.equal(401);
    });
  });

  describe('with an override of 3 per minute', () => {
    let s: TestService;
    before(async () => {
      s = await startTestService({ PLAN: 'pro', RATE_LIMIT_PER_MINUTE: '3' });
    });
    after(async () => s?.stop());

    it('applies the configured value instead of the plan\'s', async () => {
      const replies = await many(s, 5, '/regions/');
      expect(replies.map((r) => r.status).sort()).to.deep.equal([200, 200, 200, 429, 429]);
    });
  });

  describe('billing of limited requests', () => {
    let server: Server;
    const meter = new RequestMeter();
    const store = { collection: () => ({ get: async () => ({ plan: 'free' }) }) } as unknown as ReadStore;
    before(async () => {
      const app = express();
      app.use((_req, res, next) => {
        res.locals.principal = { organization: 'org1' };
        next();
      });
      app.use(managementRateLimit(store, 2, meter));
      app.get('/', (_req, res) => {
        res.json({ ok: true });
      });
      app.use(errorMiddleware(() => undefined));
      server = await new Promise((resolve) => {
        const started = app.listen(0, '127.0.0.1', () => resolve(started));
      });
    });
    after(() => new Promise((resolve) => server.close(resolve)));

    it('counts answered requests and not the 429s', async () => {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const statuses = await Promise.all(Array.from({ length: 5 }, async () => (await fetch(url)).status));
      expect(statuses.sort()).to.deep.equal([200, 200, 429, 429, 429]);
      expect(meter.count('org1', windowOf(new Date().toISOString()))).to.equal(2);
    });
  });
});
