import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BootstrapFile } from '../../infra/bootstrap.js';
import { bundleService, SERVICE_BUNDLE, SERVICE_EXTERNAL } from '../../infra/cli/build-if-stale.mjs';
import { agent } from '../support/delivery-seed.js';
import { TEST_EMBEDDINGS_CACHE } from '../support/embeddings.js';
import { publish, search, searchableCollection } from '../support/search.js';
import type { Reply, TestService } from '../support/service.js';
import { tempDir } from '../support/temp.js';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The specifiers a bundled file imports (static and dynamic). */
const importsOf = (file: string): string[] => {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)\b[^;"]*?"([^"]+)";/gm), ...text.matchAll(/\bimport\("([^"]+)"\)/g)].map((m) => m[1]!);
};
/** A package's name from a specifier (`@scope/name/sub` → `@scope/name`). */
const packageOf = (specifier: string): string => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

describe("npm start's service bundle (docs/decisions/0382)", function () {
  this.timeout(180_000);
  // A folder of dist/infra/, as the build's own: modules that find files from their own place (the console's build) see the same folders.
  const outdir = join(root, 'dist', 'infra', `service-bundle-test-${process.pid}`);
  let child: ChildProcess | null = null;
  after(() => {
    child?.kill('SIGKILL');
    rmSync(outdir, { recursive: true, force: true });
  });

  it('is what npm start runs', () => {
    expect(readFileSync(join(root, 'infra', 'cli', 'start.mjs'), 'utf8')).to.match(/await import\(pathToFileURL\(resolve\(root, SERVICE_BUNDLE, 'main\.js'\)\)\.href\)/);
    expect(SERVICE_BUNDLE).to.equal(join('dist', 'infra', 'service-bundle'));
  });

  it('holds the service and the query threads in files that import only node, each other and the packages left out on purpose', () => {
    if (!existsSync(join(root, 'dist', 'infra', 'main.js'))) throw new Error('no build in dist/: run npm run build first');
    bundleService(root, outdir);
    const files = readdirSync(outdir);
    expect(files).to.include.members(['main.js', 'query-thread.js']);
    for (const file of files) {
      for (const specifier of importsOf(join(outdir, file))) {
        if (specifier.startsWith('node:')) continue;
        if (specifier.startsWith('.')) expect(specifier, file).to.match(/^\.\/[\w-]+\.js$/);
        else expect(SERVICE_EXTERNAL, `${file} imports ${specifier}`).to.include(packageOf(specifier));
      }
    }
  });

  it('starts from the bundle, answers a text search (a query thread started from the file beside it), the agent endpoint (a chunk loaded on use) and the console, and stops on SIGTERM', async () => {
    if (!existsSync(join(outdir, 'main.js'))) bundleService(root, outdir);
    const dataDir = tempDir();
    const env = { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', DELIVERY_PORT: '0', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: 'off', EMBEDDINGS_CACHE_DIR: TEST_EMBEDDINGS_CACHE };
    const started = spawn(process.execPath, [join(outdir, 'main.js')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    let output = '';
    started.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    started.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const file = join(dataDir, 'bootstrap.json');
    const deadline = Date.now() + 60_000;
    while (!existsSync(file)) {
      if (started.exitCode !== null || Date.now() > deadline) throw new Error(`the bundle did not start:\n${output}`);
      await sleep(50);
    }
    const bootstrap = JSON.parse(readFileSync(file, 'utf8')) as BootstrapFile;
    const ready = await fetch(`${bootstrap.base_url}/readyz`);
    expect(ready.status, output).to.equal(200);

    const api = async (method: string, path: string, body?: unknown): Promise<Reply> => {
      const r = await fetch(`${bootstrap.base_url}${path}`, {
        method,
        headers: { authorization: `Bearer ${bootstrap.management_token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await r.text();
      return { status: r.status, body: text ? JSON.parse(text) : null, headers: r.headers };
    };
    // The helpers read these fields of a test service: the child's, over HTTP.
    const s = { env: bootstrap.environment, api, delivery: bootstrap.delivery_url } as unknown as TestService;
    const collection = await searchableCollection(s, 'articles', [{ key: 'title', type: 'string', searchable: true }], 'site');
    await publish(s, collection, { title: 'Baking sourdough bread' });
    let found: Reply | null = null;
    // The new API and the resource reach the delivery side a batch later.
    for (let i = 0; i < 100 && !found?.body?.results?.length; i++) {
      if (i > 0) await sleep(100);
      found = await search(s, 'site/articles', { search_mode: 'text', find_text: { query: 'sourdough' } });
    }
    expect(found!.status, JSON.stringify(found!.body)).to.equal(200);
    expect(found!.body.results.map((r: { data: { title: string } }) => r.data.title)).to.deep.equal(['Baking sourdough bread']);

    const client = await agent(`${bootstrap.delivery_url}/site`, '');
    expect((await client.listTools()).tools.length).to.be.greaterThan(0);
    await client.close();

    const page = await fetch(`${bootstrap.base_url}/console/`);
    expect(page.status).to.be.oneOf([200, 503]);
    if (page.status === 503) expect(((await page.json()) as { error_code: string }).error_code).to.equal('console_not_built');

    const exited = new Promise<number | null>((done) => started.once('exit', (code) => done(code)));
    started.kill('SIGTERM');
    expect(await exited, output).to.equal(0);
    child = null;
  });
});
