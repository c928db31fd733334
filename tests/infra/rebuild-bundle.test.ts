import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NewEvent } from '../../commands/ports.js';
import { bundleRebuild, REBUILD_BUNDLE } from '../../infra/cli/build-if-stale.mjs';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { tempDir } from '../support/temp.js';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const metadata = { actor_type: 'system', actor: null, ip_address: null, referer: null, timestamp: '2026-01-01T00:00:00Z' } as const;
const event = (n: number): NewEvent => ({ id: randomUUID(), type: 'Counted', data: { n }, metadata });

describe("npm run rebuild's bundle (the program and its thread's module, one file each)", function () {
  this.timeout(120_000);
  // A folder of dist/infra/, as the build's own: the event store module stays an import relative to it.
  const outdir = join(root, 'dist', 'infra', `rebuild-bundle-test-${process.pid}`);
  after(() => rmSync(outdir, { recursive: true, force: true }));

  it('is what `npm run rebuild` runs, and the build makes it', () => {
    const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.rebuild).to.equal(`node infra/cli/build-if-stale.mjs && node ${REBUILD_BUNDLE}/rebuild.js`);
  });

  it('bundles the compiled rebuild into two files side by side that rebuild a log, the thread included', async () => {
    if (!existsSync(join(root, 'dist', 'infra', 'cli', 'rebuild.js'))) throw new Error('no build in dist/: run npm run build first');
    bundleRebuild(root, outdir);
    expect(existsSync(join(outdir, 'rebuild.js'))).to.equal(true);
    expect(existsSync(join(outdir, 'delivery-worker.js'))).to.equal(true);
    // No module of dist/ is imported but the event store's, which a rebuild loads only with EVENTSTORE_URL set.
    for (const file of ['rebuild.js', 'delivery-worker.js']) {
      const relative = [...readFileSync(join(outdir, file), 'utf8').matchAll(/(?:from|import\()\s*["'](\.[^"']*)["']/g)].map((m) => m[1]);
      expect([...new Set(relative)], file).to.deep.equal(['../cli/event-store.js']);
      // Packages are bundled but the two that load native files from their own folders.
      const packages = [...readFileSync(join(outdir, file), 'utf8').matchAll(/(?:from|import\()\s*["']([^."'][^"']*)["']/g)].map((m) => m[1]!).filter((p) => !p.startsWith('node:'));
      expect(new Set(packages), file).to.satisfy((found: Set<string>) => [...found].every((p) => p === 'sqlite-vec' || p === 'better-sqlite3'));
    }

    const dataDir = tempDir();
    const store = new SqliteEventStore(join(dataDir, 'events.db'));
    await store.appendToStream('s-1', [event(1), event(2), event(3)], 'no_stream');
    await store.close();
    const run = spawnSync(process.execPath, [join(outdir, 'rebuild.js'), '--data-dir', dataDir], { cwd: root, encoding: 'utf8' });
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/^rebuilt 3 events in /);
    // Written by the delivery thread, which the program started from the file beside it.
    expect(existsSync(join(dataDir, 'delivery.rebuilt.db'))).to.equal(true);
  });
});
