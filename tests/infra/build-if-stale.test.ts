import { expect } from 'chai';
import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isStale, SERVICE_BUNDLE, STAMP } from '../../infra/cli/build-if-stale.mjs';
import { tempDir } from '../support/temp.js';

const at = (path: string, seconds: number): void => utimesSync(path, seconds, seconds);

describe('start from the built output, rebuilding only when sources are newer', () => {
  let root: string;
  let source: string;
  let stamp: string;

  beforeEach(() => {
    root = tempDir();
    mkdirSync(join(root, 'domain', 'deep'), { recursive: true });
    mkdirSync(join(root, SERVICE_BUNDLE), { recursive: true });
    writeFileSync(join(root, SERVICE_BUNDLE, 'main.js'), '');
    source = join(root, 'domain', 'deep', 'thing.ts');
    writeFileSync(source, 'export const x = 1;\n');
    writeFileSync(join(root, 'tsconfig.json'), '{}');
    at(source, 1_000);
    at(join(root, 'tsconfig.json'), 1_000);
    stamp = join(root, STAMP);
  });

  it('builds when no build exists', () => {
    expect(isStale(root)).to.equal(true);
  });

  it('starts without compiling when the build is newer than every source and config', () => {
    writeFileSync(stamp, 'built');
    at(stamp, 2_000);
    expect(isStale(root)).to.equal(false);
  });

  it('builds when the build has no service bundle (a build from before it, docs/decisions/0382)', () => {
    writeFileSync(stamp, 'built');
    at(stamp, 2_000);
    rmSync(join(root, SERVICE_BUNDLE, 'main.js'));
    expect(isStale(root)).to.equal(true);
  });

  it('rebuilds when a source in a nested folder, or a config file, changed after the build', () => {
    writeFileSync(stamp, 'built');
    at(stamp, 2_000);
    at(source, 3_000);
    expect(isStale(root)).to.equal(true);
    at(source, 1_000);
    at(join(root, 'tsconfig.json'), 3_000);
    expect(isStale(root)).to.equal(true);
  });

  it('is what npm start runs in its own process before the compiled service (docs/decisions/0347), and what npm install runs once', () => {
    const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>;
    // Node flags may come first (the heap limit, tests/infra/heap-limit.test.ts); exec: npm's signal reaches node itself.
    expect(scripts.start).to.match(/^exec node (?:--[\w-]+=\S+ )*infra\/cli\/start\.mjs$/);
    expect(scripts.prestart).to.equal(undefined);
    expect(scripts.prepare).to.equal('node infra/cli/build-if-stale.mjs && node dist/infra/cli/prepare-word-vectors.js');
  });
});
