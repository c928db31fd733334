import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { DockerfileParser } from 'dockerfile-ast';
import { serviceNodeArgs } from '../../infra/bench/service.js';
import { HEAP_LIMIT_FLAG, HEAP_LIMIT_MB, SEMI_SPACE_FLAG, SEMI_SPACE_MB, SERVICE_V8_FLAGS } from '../../infra/heap-limit.js';

type EnvInstruction = { getProperties(): { getName(): string; getValue(): string | null }[] };

/** The service's V8 heap limit (docs/decisions/0220) is the same wherever it starts. */
describe('the heap limit of every start of the service', () => {
  it('is passed by npm start, set as NODE_OPTIONS in the container, and given to the benchmark service', () => {
    const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).to.equal(`exec node ${SERVICE_V8_FLAGS.join(' ')} infra/cli/start.mjs`);
    expect(SERVICE_V8_FLAGS).to.deep.equal([HEAP_LIMIT_FLAG, SEMI_SPACE_FLAG]);

    const dockerfile = DockerfileParser.parse(readFileSync('Dockerfile', 'utf8'));
    const env = Object.fromEntries(
      dockerfile
        .getInstructions()
        .filter((i) => i.getKeyword() === 'ENV')
        .flatMap((i) => (i as unknown as EnvInstruction).getProperties().map((p) => [p.getName(), p.getValue()])),
    );
    expect(env.NODE_OPTIONS).to.equal(SERVICE_V8_FLAGS.join(' '));

    const args = serviceNodeArgs(['--cpu-prof']);
    expect(args.slice(0, SERVICE_V8_FLAGS.length)).to.deep.equal(SERVICE_V8_FLAGS);
    expect(args).to.include('--cpu-prof');
    expect(args[args.length - 1]).to.match(/dist[/\\]infra[/\\]main\.js$/);
    expect(serviceNodeArgs([], true).at(-1)).to.match(/dist[/\\]infra[/\\]service-bundle[/\\]main\.js$/);
  });

  it('is a flag Node accepts and V8 applies: the heap size limit is the old space plus the young generation', () => {
    const limit = Number(execFileSync(process.execPath, [HEAP_LIMIT_FLAG, '-e', 'process.stdout.write(String(require("v8").getHeapStatistics().heap_size_limit))'], { encoding: 'utf8' }));
    const mb = limit / 1024 / 1024;
    expect(mb).to.be.at.least(HEAP_LIMIT_MB);
    // The young generation on top differs by Node release: 128 MB on Node 20, 192 MB on Node 24.
    expect(mb).to.be.below(HEAP_LIMIT_MB + 256);
  });

  it('lets the young generation grow to two semi-spaces of SEMI_SPACE_MB (docs/decisions/0291, 0312)', () => {
    const script = 'const v8=require("v8");let k=[];for(let i=0;i<3e6;i++){k.push({a:i,b:"x"+i});if(k.length>50000)k=[]}process.stdout.write(String(v8.getHeapSpaceStatistics().find((s)=>s.space_name==="new_space").space_size))';
    const grown = (flags: readonly string[]) => Number(execFileSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' })) / 1024 / 1024;
    expect(grown(SERVICE_V8_FLAGS)).to.equal(2 * SEMI_SPACE_MB);
  });
});
