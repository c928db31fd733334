import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { markStage, stageNow, stageTraceOn, tracedListener, tracedTarget } from '../../infra/observability/stage-trace.js';
import type { ProjectionTarget } from '../../projections/runner.js';
import { tempDir } from '../support/temp.js';

const url = (path: string): string => pathToFileURL(resolve(path)).href;

/** The benchmark-only stage trace (docs/decisions/0275). */
describe('stage trace (CMS_STAGE_TRACE)', function () {
  this.timeout(60_000);

  it('is off without the variable: the wrappers hand back what they were given', () => {
    expect(process.env.CMS_STAGE_TRACE ?? '').to.equal('');
    expect(stageTraceOn()).to.equal(false);
    const target = { name: 't' } as ProjectionTarget;
    expect(tracedTarget(target)).to.equal(target);
    const listener = () => {};
    expect(tracedListener('x', listener)).to.equal(listener);
    markStage('nothing', stageNow()); // a no-op
  });

  it('with the variable, writes the group commit, the WAL sync, the answer and a projection batch of an append when the process exits', async () => {
    const dir = tempDir();
    const file = join(dir, 'stages.jsonl');
    const script = join(dir, 'trace.mts');
    writeFileSync(
      script,
      `import { startStageTrace, tracedTarget } from ${JSON.stringify(url('infra/observability/stage-trace.ts'))};
import { SqliteEventStore } from ${JSON.stringify(url('infra/sqlite/event-store.ts'))};
startStageTrace();
const store = new SqliteEventStore(${JSON.stringify(join(dir, 'events.db'))});
const metadata = { actor_type: 'system', actor: null, ip_address: null, referer: null, timestamp: '2026-01-01T00:00:00Z' };
await store.appendToStream('s', [{ id: 'e1', type: 'A', data: {}, metadata }], 'no_stream');
await store.appendToStream('s', [{ id: 'e2', type: 'B', data: {}, metadata }], 0);
const target = tracedTarget({ name: 'probe', checkpoint: async () => '', apply: async () => {} });
await target.apply(await store.readAll('', 10), '');
await store.close();
process.exit(0);
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, CMS_STAGE_TRACE: file }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code, out).to.equal(0);
    const marks = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { stage: string; at: number; ms: number; n?: number });
    const of = (stage: string) => marks.filter((m) => m.stage === stage);
    expect(of('commit').map((m) => m.n)).to.deep.equal([1, 1]);
    expect(of('sync')).to.have.length.of.at.least(2);
    expect(of('answer-and-emit')).to.have.length.of.at.least(2);
    expect(of('apply:probe').map((m) => m.n)).to.deep.equal([2]);
    for (const m of marks) expect(m.ms).to.be.at.least(0);
    const [first, second] = of('commit');
    expect(second!.at).to.be.greaterThan(first!.at);
    expect(of('loop-delay-summary')).to.have.length(1);
  });
});
