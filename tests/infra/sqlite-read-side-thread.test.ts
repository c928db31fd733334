import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { READ_MODELS, REVISION_MODELS } from '../../projections/catalog.js';
import { readModelTarget } from '../../projections/read-model-target.js';
import { RecentDocs } from '../../projections/recent-docs.js';
import type { ProjectionTarget } from '../../projections/runner.js';
import { usageTarget } from '../../projections/usage.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { openSqlite } from '../../infra/sqlite/open.js';
import { SqliteReadStore } from '../../infra/sqlite/read-store.js';
import { onReadSideThread, ReadSideThread } from '../../infra/sqlite/read-side-worker.js';
import { collectionWithSchema, v1 } from '../support/content.js';
import { TEST_EMBEDDINGS_CACHE } from '../support/embeddings.js';
import { startTestService } from '../support/service.js';
import { tempDir } from '../support/temp.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every row of every read-model table and the checkpoints of the three consumers, by table. */
function rowsOf(file: string): Record<string, unknown[]> {
  const db = openSqlite(file);
  try {
    const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'rm\\_%' ESCAPE '\\' ORDER BY name").all();
    const rows: Record<string, unknown[]> = {};
    for (const { name } of tables) rows[name] = db.prepare(`SELECT id, doc FROM ${name} ORDER BY id`).all();
    rows.checkpoints = db.prepare("SELECT consumer, position FROM checkpoints WHERE consumer IN ('read-models', 'revisions', 'usage') ORDER BY consumer").all();
    return rows;
  } finally {
    db.close();
  }
}

describe('the read side on its own thread (READ_SIDE_THREAD, docs/decisions/0307)', function () {
  this.timeout(60_000);

  it('answers wait=true creates after the thread applied them, as the main thread does without it', async () => {
    const bodies: Record<string, unknown>[] = [];
    for (const setting of ['on', 'off']) {
      const s = await startTestService({ PLAN: 'pro', READ_SIDE_THREAD: setting });
      try {
        const folder = await collectionWithSchema(s, 'articles');
        const created = await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title: 'hello', views: 3 } });
        expect(created.status, JSON.stringify(created.body)).to.equal(201);
        // Read your write: the document and the revision are there once the answer is.
        const got = await s.api('GET', v1(s, `/collections/${folder}/resources/${created.body.key}/`));
        expect(got.status).to.equal(200);
        expect(got.body).to.deep.equal(created.body);
        const data = await s.api('GET', v1(s, `/collections/${folder}/resources/${created.body.key}/data/`));
        expect(data.body).to.deep.equal({ title: 'hello', views: 3 });
        if (setting === 'on') expect(s.service.readSideBatches()).to.be.above(0);
        else expect(s.service.readSideBatches()).to.equal(0);
        // The answer's shape and fixed fields; keys and times differ between the two services.
        bodies.push(JSON.parse(JSON.stringify(created.body, (name, value: unknown) => (typeof value === 'string' && name !== 'name' && name !== 'content_type' ? typeof value : value))));
      } finally {
        await s.stop();
      }
    }
    expect(bodies[0]).to.deep.equal(bodies[1]);
  });

  for (const oneCommit of [true, false]) {
  it(`writes the same documents and checkpoints from a log as the main thread, and hands over what a batch committed (${oneCommit ? 'batches applied together in one transaction' : 'each batch in its own'}, docs/decisions/0311)`, async () => {
    // A log made by the service with the thread off: its read-model file is what the main thread wrote.
    const dir = tempDir();
    const s = await startTestService({ PLAN: 'pro', READ_SIDE_THREAD: 'off' }, dir);
    const folder = await collectionWithSchema(s, 'articles');
    const keys: string[] = [];
    for (let round = 0; round < 3; round++) {
      const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title: `t${round}-${i}`, views: i } })));
      for (const r of replies) keys.push(r.body.key as string);
    }
    await s.api('DELETE', v1(s, `/collections/${folder}/resources/${keys[0]}/`));
    await s.stop();

    const file = join(tempDir(), 'read-models.db');
    const local = new SqliteReadStore(file);
    const recent = new RecentDocs('resources');
    const locals = [readModelTarget(local, READ_MODELS, 'read-models'), readModelTarget(local, REVISION_MODELS, 'revisions'), usageTarget(local)];
    for (const target of locals) await target.prepare();
    const thread = new ReadSideThread(file, { oneCommit });
    const events = new SqliteEventStore(join(dir, 'events.db'));
    try {
      const all = await events.readAll('', 100_000);
      const [readModels, revisions, usage] = locals.map((t, i) => onReadSideThread(thread, t, i === 0 ? recent : undefined)) as [ProjectionTarget, ProjectionTarget, ProjectionTarget];
      for (let at = 0; at < all.length; at += 7) {
        const batch = all.slice(at, at + 7);
        const position = batch[batch.length - 1]!.position;
        await Promise.all([readModels.apply(batch, position), revisions.apply(batch, position), usage.apply(batch, position)]);
      }
      expect(await readModels.checkpoint()).to.equal(all[all.length - 1]!.position);
      expect(thread.committed).to.equal(3 * Math.ceil(all.length / 7));
      // The three targets' batch is the same events: copied to the thread once, named by the other two.
      expect(thread.posted).to.deep.equal({ copied: Math.ceil(all.length / 7), named: 2 * Math.ceil(all.length / 7) });
      // The last batch's resources, handed over as the store holds them, frozen.
      const last = keys[keys.length - 1]!;
      const held = recent.get(last);
      expect(held).to.deep.equal(await local.collection('resources').get(last));
      expect(Object.isFrozen(held)).to.equal(true);

      // A batch the thread refuses: the error crosses with its message, and nothing is handed over.
      const broken = onReadSideThread(thread, { ...locals[0]!, name: 'no-such-target' }, recent);
      let refused: unknown = null;
      await broken.apply(all.slice(0, 1), all[0]!.position).catch((error: unknown) => (refused = error));
      expect(String(refused)).to.match(/no read-side target named no-such-target/);
      expect(recent.get(last)).to.equal(undefined);
    } finally {
      await thread.close();
      await events.close();
      await local.close();
    }
    expect(rowsOf(file)).to.deep.equal(rowsOf(join(dir, 'read-models.db')));
  });
  }

  it('applies the other batches of a round when one of them fails, each on its own (docs/decisions/0311)', async () => {
    const dir = tempDir();
    const s = await startTestService({ PLAN: 'pro', READ_SIDE_THREAD: 'off' }, dir);
    const folder = await collectionWithSchema(s, 'articles');
    await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title: 'one', views: 1 } });
    await s.stop();

    const file = join(tempDir(), 'read-models.db');
    const local = new SqliteReadStore(file);
    const thread = new ReadSideThread(file);
    const events = new SqliteEventStore(join(dir, 'events.db'));
    try {
      const all = await events.readAll('', 100_000);
      const last = all[all.length - 1]!.position;
      const revisions = onReadSideThread(thread, readModelTarget(local, REVISION_MODELS, 'revisions'));
      const usage = onReadSideThread(thread, usageTarget(local));
      const broken = onReadSideThread(thread, { ...usageTarget(local), name: 'no-such-target' });
      // Posted in one turn: the thread takes them as one round, whose transaction the broken one rolls back.
      const outcomes = await Promise.allSettled([revisions.apply(all, last), broken.apply(all, last), usage.apply(all, last)]);
      expect(outcomes.map((o) => o.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
      expect(String((outcomes[1] as PromiseRejectedResult).reason)).to.match(/no read-side target named no-such-target/);
      expect(await revisions.checkpoint()).to.equal(last);
      expect(await usage.checkpoint()).to.equal(last);
      expect(thread.committed).to.equal(2);
    } finally {
      await thread.close();
      await events.close();
      await local.close();
    }
    expect(rowsOf(file).rm_revisions).to.deep.equal(rowsOf(join(dir, 'read-models.db')).rm_revisions);
  });

  it('starts a new thread for a batch after the last one ended', async () => {
    const file = join(tempDir(), 'read-models.db');
    const local = new SqliteReadStore(file);
    const thread = new ReadSideThread(file);
    const usage = onReadSideThread(thread, usageTarget(local));
    try {
      await usage.apply([], '00000000000000000001');
      await thread.close();
      await usage.apply([], '00000000000000000002');
      expect(await usage.checkpoint()).to.equal('00000000000000000002');
      expect(thread.committed).to.equal(2);
    } finally {
      await thread.close();
      await local.close();
    }
  });

  it('lets the process end by itself once the service stopped', async () => {
    const script = `
      import { loadConfig } from './infra/config.ts';
      import { createLogger } from './infra/logger.ts';
      import { startService } from './infra/service.ts';
      const config = loadConfig({ DATA_DIR: ${JSON.stringify(tempDir())}, PORT: '0', DELIVERY_PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_PER_MINUTE: 'off', READ_SIDE_THREAD: 'on', EMBEDDINGS_CACHE_DIR: ${JSON.stringify(TEST_EMBEDDINGS_CACHE)} });
      const service = await startService(config, createLogger('silent'));
      const token = service.bootstrap.management_token;
      const env = service.bootstrap.environment;
      const r = await fetch(service.urls.base + '/v1/' + env + '/collections/tree/', { method: 'POST', headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'A', alias: 'a' }) });
      if (r.status !== 201) throw new Error('create answered ' + r.status);
      if (service.readSideBatches() === 0) throw new Error('no batch on the thread');
      await service.stop();
      console.log('stopped');
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
    const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
    clearTimeout(timer);
    expect(signal, out).to.equal(null);
    expect(code, out).to.equal(0);
    expect(out).to.include('stopped');
  });
});
