import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { DockerfileParser, type Instruction } from 'dockerfile-ast';
import { parse } from 'yaml';
import { loadConfig } from '../../infra/config.js';
import { startTestService } from '../support/service.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Docker cannot run where the tests run, so the container files are checked as files: the
 * Dockerfile's stages and runtime settings, the compose service's variables read by the
 * service's own configuration loader, and the health check's command run against a real service.
 */
describe('Container: Dockerfile and the docker-compose service', function () {
  this.timeout(30_000);
  const dockerfile = DockerfileParser.parse(readFileSync('Dockerfile', 'utf8'));
  const compose = parse(readFileSync('docker-compose.yml', 'utf8')) as Json;
  const stages = dockerfile.getFROMs().map((from) => from.getBuildStage());
  const all = dockerfile.getInstructions();
  const runtimeStart = all.indexOf(dockerfile.getFROMs()[1] as unknown as Instruction);
  const runtime = all.slice(runtimeStart);
  const args = (i: Instruction) => (i.getArgumentsContent() ?? '').replace(/\\\n\s*/g, ' ');
  const of = (keyword: string, within: readonly Instruction[] = runtime) => within.filter((i) => i.getKeyword() === keyword);
  const env = Object.fromEntries(
    of('ENV').flatMap((i) => (i as unknown as { getProperties(): { getName(): string; getValue(): string | null }[] }).getProperties().map((p) => [p.getName(), p.getValue()])),
  ) as Record<string, string>;

  it('builds in two stages: a build stage with the compilers, a runtime stage that copies only from it', () => {
    expect(stages).to.deep.equal(['build', 'runtime']);
    expect(dockerfile.getFROMs().every((from) => /^node:\d+-bookworm-slim$/.test(from.getImageName() + ':' + from.getImageTag()))).to.equal(true);
    expect(of('RUN', all.slice(0, runtimeStart)).map(args).join(' ')).to.include('npm ci').and.include('npm prune --omit=dev').and.include('g++');
    for (const copy of of('COPY')) {
      const flags = (copy as unknown as { getFlags(): { getName(): string; getValue(): string | null }[] }).getFlags();
      expect(flags.map((f) => `${f.getName()}=${f.getValue()}`), args(copy)).to.deep.equal(['from=build']);
    }
    expect(of('RUN').map(args).join(' ')).not.to.match(/apt-get|npm /);
  });

  it('runs as the unprivileged node user, with the data directory as a volume, on all interfaces', () => {
    expect(of('USER').map(args)).to.deep.equal(['node']);
    expect(of('VOLUME').map(args)).to.deep.equal(['["/data"]']);
    expect(env).to.include({ DATA_DIR: '/data', HOST: '0.0.0.0', PORT: '3000', DELIVERY_PORT: '3001', NODE_ENV: 'production' });
    expect(of('EXPOSE').map(args)).to.deep.equal(['3000 3001']);
    expect(of('CMD').map(args)).to.deep.equal(['["node", "dist/infra/service-bundle/main.js"]']);
    expect(of('STOPSIGNAL').map(args)).to.deep.equal(['SIGTERM']);
  });

  it('has a HEALTHCHECK whose command answers 0 against a running service and 1 when nothing listens', async () => {
    const [healthcheck] = of('HEALTHCHECK');
    const command = JSON.parse(/CMD\s+(\[.*\])\s*$/.exec(args(healthcheck as Instruction))?.[1] ?? '[]') as string[];
    expect(command[0]).to.equal('node');
    expect(command.join(' ')).to.include('/healthz');
    const run = async (port: string): Promise<number | null> => {
      const child = spawn(process.execPath, command.slice(1), { env: { ...process.env, PORT: port }, stdio: 'ignore' });
      const [code] = (await once(child, 'exit')) as [number | null];
      return code;
    };
    const s = await startTestService();
    const port = new URL(s.base).port;
    try {
      expect(await run(port)).to.equal(0);
    } finally {
      await s.stop();
    }
    expect(await run(port)).to.equal(1);
  });

  it('ignores local state when building (.dockerignore)', () => {
    const ignored = readFileSync('.dockerignore', 'utf8').split('\n');
    expect(ignored).to.include.members(['node_modules', 'dist', 'data', '.git']);
  });

  it('runs the service in compose next to the three engines, with the variables the service reads', () => {
    const cms = compose.services.cms as Json;
    expect(cms.build).to.equal('.');
    expect(Object.keys(cms.depends_on)).to.have.members(['eventstoredb', 'mongodb', 'opensearch']);
    const config = loadConfig(cms.environment as Record<string, string>);
    expect(config.eventStoreUrl).to.equal('esdb://eventstoredb:2113?tls=false');
    expect(config.mongoUrl).to.equal('mongodb://mongodb:27017');
    expect(config.openSearchUrl).to.equal('http://opensearch:9200');
    expect(config).to.include({ host: '0.0.0.0', port: 3000, deliveryPort: 3001, dataDir: '/data' });
    for (const url of [config.eventStoreUrl, config.mongoUrl, config.openSearchUrl]) {
      expect(compose.services).to.have.property(new URL(url ?? '').hostname);
    }
    expect(cms.ports).to.have.members(['127.0.0.1:3000:3000', '127.0.0.1:3001:3001']);
    expect(cms.volumes).to.deep.equal([`cms-data:${env.DATA_DIR}`]);
    expect(compose.volumes).to.have.property('cms-data');
  });
});
