import { expect } from 'chai';
import { publish, search, searchableCollection } from '../support/search.js';
import { startTestService, type TestService } from '../support/service.js';

/**
 * A delivery list or search is cut at its time budget (QUERY_TIMEOUT_MS) and answered 503 with
 * Retry-After; it runs on the query pool's threads, so the thread that answers HTTP stays free
 * (docs/decisions/0339).
 */
describe('HTTP: the query time budget (QUERY_TIMEOUT_MS)', function () {
  this.timeout(120_000);
  let s: TestService;
  // Fifty case-insensitive conditions of two characters (no trigram to ask: every text is read and folded), none of which holds.
  const slow = { where: { $: { any_of: Array.from({ length: 50 }, (_, i) => ({ body__icontains: `q${String.fromCharCode(97 + (i % 26))}` })) } } };

  before(async () => {
    s = await startTestService({ QUERY_TIMEOUT_MS: '100' });
    const collection = await searchableCollection(s, 'notes', [{ key: 'body', type: 'text' }], 'site');
    const text = 'lorem ipsum dolor sit amet '.repeat(2000);
    for (let i = 0; i < 40; i++) await publish(s, collection, { body: `${i} ${text}` });
  });
  after(() => s?.stop());

  it('answers a query past its budget 503 service_unavailable with Retry-After, and a cheap one as before', async () => {
    const r = await search(s, 'site/notes', slow);
    expect(r.status, JSON.stringify(r.body)).to.equal(503);
    expect(r.body.error_code).to.equal('service_unavailable');
    expect(r.body.detail).to.deep.include({ timeout_ms: 100 });
    expect(Object.keys(r.body).sort()).to.deep.equal(['detail', 'error_code', 'message']);
    expect(r.headers.get('retry-after')).to.equal('1');
    const cheap = await search(s, 'site/notes', { where: { $: { all_of: [{ body__icontains: 'ipsum dolor' }] } } }, '?limit=5');
    expect(cheap.status, JSON.stringify(cheap.body)).to.equal(200);
    expect(cheap.body.results).to.have.length(5);
  });

  // The goal is 50 ms (issue 36). The test's client shares the service's process, and a machine shared with other
  // work adds its own wait to every answer (its idle figure is printed with a failure): the bound here is what stays
  // true on such a machine, far under what a blocked thread would give (each query holding it for its whole run).
  it('keeps management and delivery /healthz answering at once (goal 50 ms) while ten such queries run', async () => {
    const idle: number[] = [];
    for (const origin of [s.base, s.service.urls.delivery]) {
      const started = performance.now();
      await fetch(`${origin}/healthz`);
      idle.push(performance.now() - started);
    }
    const queries = Array.from({ length: 10 }, () => search(s, 'site/notes', slow));
    const slowest: number[] = [];
    for (const origin of [s.base, s.service.urls.delivery, s.base, s.service.urls.delivery]) {
      const started = performance.now();
      const r = await fetch(`${origin}/healthz`);
      slowest.push(performance.now() - started);
      expect(r.status).to.equal(200);
    }
    const answers = await Promise.all(queries);
    expect(answers.map((a) => a.status)).to.deep.equal(Array(10).fill(503));
    expect(Math.max(...slowest), `healthz took ${slowest.map((ms) => ms.toFixed(1)).join(', ')} ms (${idle.map((ms) => ms.toFixed(1)).join(', ')} ms idle)`).to.be.below(50);
  });
});
