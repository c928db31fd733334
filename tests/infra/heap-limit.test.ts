import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { DockerfileParser } from 'dockerfile-ast';
import { serviceNodeArgs } from '../../infra/bench/service.js';
import { HEAP_LIMIT_FLAG, HEAP_LIMIT_MB } from '../../infra/heap-limit.js';

type EnvInstruction = { getProperties(): { getName(): string; getValue(): string | null }[] };

/** The service's V8 heap limit (docs/decisions/0220) is the same wherever it starts. */
describe('the heap limit of every start of the service', () => {
  it('is passed by npm start, set as NODE_OPTIONS in the container, and given to the benchmark service', () => {
    const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).to.equal(`node ${HEAP_LIMIT_FLAG} dist/infra/main.js`);

    const dockerfile = DockerfileParser.parse(readFileSync('Dockerfile', 'utf8'));
    const env = Object.fromEntries(
      dockerfile
        .getInstructions()
        .filter((i) => i.getKeyword() === 'ENV')
        .flatMap((i) => (i as unknown as EnvInstruction).getProperties().map((p) => [p.getName(), p.getValue()])),
    );
    expect(env.NODE_OPTIONS).to.equal(HEAP_LIMIT_FLAG);

    const args = serviceNodeArgs(['--cpu-prof']);
    expect(args[0]).to.equal(HEAP_LIMIT_FLAG);
    expect(args).to.include('--cpu-prof');
    expect(args[args.length - 1]).to.match(/dist[/\\]infra[/\\]main\.js$/);
  });

  it('is a flag Node accepts and V8 applies: the heap size limit is the old space plus the young generation', () => {
    const limit = Number(execFileSync(process.execPath, [HEAP_LIMIT_FLAG, '-e', 'process.stdout.write(String(require("v8").getHeapStatistics().heap_size_limit))'], { encoding: 'utf8' }));
    const mb = limit / 1024 / 1024;
    expect(mb).to.be.at.least(HEAP_LIMIT_MB);
    // The young generation on top differs by Node release: 128 MB on Node 20, 192 MB on Node 24.
    expect(mb).to.be.below(HEAP_LIMIT_MB + 256);
  });
});
