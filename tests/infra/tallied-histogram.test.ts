import { expect } from 'chai';
import { Histogram, Registry } from 'prom-client';
import { createMetrics } from '../../infra/observability/metrics.js';
import { TalliedHistogram } from '../../infra/observability/tallied-histogram.js';

const BUCKETS = [0.001, 0.01, 0.1, 1];
const NAME = 'answer_seconds';
const HELP = 'Time of an answer.';
const OBSERVED: [Record<'route' | 'status', string>, number][] = [
  [{ route: '/a', status: '200' }, 0.0004],
  [{ route: '/a', status: '200' }, 0.001],
  [{ route: '/a', status: '200' }, 0.05],
  [{ route: '/b', status: '404' }, 3],
  [{ route: '/a', status: '500' }, 0.2],
  [{ status: '200', route: '/a' }, 0.009],
];

describe('TalliedHistogram: a histogram counted in plain numbers (docs/decisions/0290)', () => {
  it("writes the same exposition as prom-client's Histogram for the same observations", async () => {
    const theirs = new Registry();
    const histogram = new Histogram({ name: NAME, help: HELP, labelNames: ['route', 'status'], buckets: BUCKETS, registers: [theirs] });
    const ours = new Registry();
    const tallied = new TalliedHistogram(NAME, HELP, ['route', 'status'], BUCKETS);
    ours.registerMetric(tallied as never);
    for (const [labels, value] of OBSERVED) {
      histogram.observe(labels, value);
      tallied.observe(labels, value);
    }
    expect(await ours.metrics()).to.equal(await theirs.metrics());
    expect(await ours.metrics()).to.include('answer_seconds_bucket{le="0.01",route="/a",status="200"} 3');
  });

  it('adds to the entry a caller kept, and forgets every entry on reset', async () => {
    const tallied = new TalliedHistogram(NAME, HELP, ['route', 'status'], BUCKETS);
    const entry = tallied.entry({ route: '/a', status: '200' });
    tallied.add(entry, 0.5);
    tallied.observe({ route: '/a', status: '200' }, 0.0001);
    expect(tallied.entry({ status: '200', route: '/a' })).to.equal(entry);
    expect(entry).to.deep.include({ count: 2, sum: 0.5001, pending: 2 });
    expect(() => tallied.observe({ route: '/a', status: '200' }, Number.NaN)).to.throw(TypeError);
    tallied.reset();
    expect((await tallied.get()).values).to.deep.equal([]);
  });

  it("counts each observation of the service's HTTP histogram once in http_requests_total, also across scrapes", async () => {
    const metrics = createMetrics(async () => []);
    const labels = { interface: 'management', method: 'POST', route: '/v1/:env/x/', status: '201' } as const;
    const entry = metrics.httpDuration.entry(labels);
    metrics.httpDuration.add(entry, 0.002);
    metrics.httpDuration.observe(labels, 0.003);
    const line = 'http_requests_total{interface="management",method="POST",route="/v1/:env/x/",status="201"}';
    expect(await metrics.registry.metrics()).to.include(`${line} 2\n`);
    expect(await metrics.registry.metrics()).to.include(`${line} 2\n`);
    metrics.httpDuration.add(entry, 0.2);
    const text = await metrics.registry.metrics();
    expect(text).to.include(`${line} 3\n`);
    expect(text).to.include('http_request_duration_seconds_count{interface="management",method="POST",route="/v1/:env/x/",status="201"} 3');
    expect(text).to.include('http_request_duration_seconds_bucket{le="0.0025",interface="management",method="POST",route="/v1/:env/x/",status="201"} 1');
  });
});
