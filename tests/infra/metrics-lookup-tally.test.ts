import { expect } from 'chai';
import { createMetrics } from '../../infra/observability/metrics.js';

const line = (text: string, result: string): string | undefined =>
  text.split('\n').find((l) => l.startsWith(`cache_lookups_total{cache="aggregate_state",result="${result}"}`));

/** Lookups tallied in plain numbers reach `cache_lookups_total` on every scrape, each counted once. */
describe('metrics: tallied cache lookups', () => {
  it('adds the hits and misses counted since the last scrape, and never counts one twice', async () => {
    const metrics = createMetrics(async () => []);
    const record = metrics.tallyLookups('aggregate_state');
    expect(line(await metrics.registry.metrics(), 'hit')).to.equal(undefined);
    for (let i = 0; i < 5; i++) record(true);
    record(false);
    let text = await metrics.registry.metrics();
    expect(line(text, 'hit')).to.match(/ 5$/);
    expect(line(text, 'miss')).to.match(/ 1$/);
    text = await metrics.registry.metrics();
    expect(line(text, 'hit')).to.match(/ 5$/);
    record(true);
    record(false);
    record(false);
    text = await metrics.registry.metrics();
    expect(line(text, 'hit')).to.match(/ 6$/);
    expect(line(text, 'miss')).to.match(/ 3$/);
  });
});
