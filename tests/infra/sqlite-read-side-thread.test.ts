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
import { SqliteEventStore, type CommittedRow } from '../../infra/sqlite/event-store.js';
import { openSqlite } from '../../infra/sqlite/open.js';
import { SqliteReadStore } from '../../infra/sqlite/read-store.js';
import { onReadSideThread, ReadSideThread } from '../../infra/sqlite/read-side-worker.js';
import { REACTOR_TABLES } from '../../projections/reactor-tables.js';
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
    // The reactors' tables (webhooks, the scheduler) are written by no read-side target.
    for (const { name } of tables) if (!REACTOR_TABLES.has(name.slice('rm_'.length))) rows[name] = db.prepare(`SELECT id, doc FROM ${name} ORDER BY id`).all();
    rows.checkpoints = db.prepare("SELECT consumer, position FROM checkpoints WHERE consumer IN ('read-models', 'revisions', 'usage') ORDER BY consumer").all();
    return rows;
  } finally {
    db.close();
  }
}

/** A service's log, made with the read side on the main thread: its read-model file is what the main thread wrote; the resources' keys in creation order. */
async function serviceLog(): Promise<{ dir: string; keys: string[] }> {
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
  return { dir, keys };
}

/** The log's rows as a group commit tells them (event-store.ts `onCommitted`). */
function committedRows(eventsFile: string): CommittedRow[] {
  const db = openSqlite(eventsFile);
  try {
    return db
      .prepare<[], Omit<CommittedRow, 'position'> & { position: number }>('SELECT position, id, stream, revision, type, data, metadata FROM events ORDER BY position')
      .all()
      .map((row) => ({ ...row, position: String(row.position).padStart(20, '0') }));
  } finally {
    db.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
    const { dir, keys } = await serviceLog();

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

  describe('previews: a group applied during its sync, committed when its batches come (READ_SIDE_PREVIEW, docs/decisions/0313)', () => {
    let dir: string;
    before(async () => {
      ({ dir } = await serviceLog());
    });

    /**
     * Replays the log through a thread with previews in batches of 7 (all three targets), calling
     * `before` ahead of each batch to post previews; returns the thread's counts, and checks the
     * rows, checkpoints and hand-over against the main thread's.
     */
    async function replay(
      before: (at: number, rows: readonly CommittedRow[], thread: ReadSideThread, file: string) => Promise<void> | void,
      options: { readonly previewMs?: number; readonly apart?: (at: number) => boolean } = {},
    ): Promise<{ readonly previews: ReadSideThread['previews']; readonly committed: number }> {
      const file = join(tempDir(), 'read-models.db');
      const local = new SqliteReadStore(file);
      const recent = new RecentDocs('resources');
      const locals = [readModelTarget(local, READ_MODELS, 'read-models'), readModelTarget(local, REVISION_MODELS, 'revisions'), usageTarget(local)];
      for (const target of locals) await target.prepare();
      const thread = new ReadSideThread(file, { oneCommit: true, preview: true, ...(options.previewMs ? { previewMs: options.previewMs } : {}) });
      const events = new SqliteEventStore(join(dir, 'events.db'));
      const rows = committedRows(join(dir, 'events.db'));
      try {
        const all = await events.readAll('', 100_000);
        expect(rows.map((r) => r.position)).to.deep.equal(all.map((e) => e.position));
        const [readModels, revisions, usage] = locals.map((t, i) => onReadSideThread(thread, t, i === 0 ? recent : undefined)) as [ProjectionTarget, ProjectionTarget, ProjectionTarget];
        for (let at = 0; at < all.length; at += 7) {
          const batch = all.slice(at, at + 7);
          const position = batch[batch.length - 1]!.position;
          await before(at, rows, thread, file);
          if (options.apart?.(at)) {
            // A paused runner: its batch comes after the others were answered.
            await Promise.all([readModels.apply(batch, position), revisions.apply(batch, position)]);
            await usage.apply(batch, position);
          } else await Promise.all([readModels.apply(batch, position), revisions.apply(batch, position), usage.apply(batch, position)]);
        }
        expect(await readModels.checkpoint()).to.equal(all[all.length - 1]!.position);
        // The last batch's resources, handed over as the store holds them.
        const lastCreated = [...all].reverse().find((e) => e.type === 'ResourceCreated')!;
        const key = (lastCreated.data as { key: string }).key;
        expect(recent.get(key)).to.deep.equal(await local.collection('resources').get(key));
        return { previews: { ...thread.previews }, committed: thread.committed };
      } finally {
        await thread.close();
        await events.close();
        await local.close();
        expect(rowsOf(file)).to.deep.equal(rowsOf(join(dir, 'read-models.db')));
      }
    }

    const batches = (rows: readonly CommittedRow[]) => Math.ceil(rows.length / 7);

    it('writes the same documents and checkpoints as the main thread when each batch claims the preview of its events', async () => {
      let count = 0;
      const { previews, committed } = await replay((at, rows, thread) => {
        count = batches(rows);
        // The first batch starts the thread: previews go only to a running one.
        thread.preview(rows.slice(at, at + 7));
      });
      expect(previews.posted).to.equal(count - 1);
      expect(previews.committed).to.equal(3 * (count - 1));
      expect(committed).to.equal(3 * count);
    });

    it('applies the rest of a batch that goes beyond its preview in the same transaction', async () => {
      let count = 0;
      const { previews } = await replay((at, rows, thread) => {
        count = batches(rows);
        // The batch's first four events previewed (a group), the other three not (the next group, synced meanwhile).
        thread.preview(rows.slice(at, at + 4));
      });
      expect(previews.committed).to.equal(3 * (count - 1));
    });

    it('rolls a preview back and applies the batches as without it when they do not start with its events', async () => {
      const { previews, committed } = await replay((at, rows, thread) => {
        // The next group previewed ahead of this group's batches; the runners' batches start earlier.
        thread.preview(rows.slice(at + 7, at + 14));
      });
      expect(previews.posted).to.be.above(0);
      expect(previews.committed).to.equal(0);
      expect(committed).to.be.above(0);
    });

    it('rolls a preview back without waiting for its time when a runner\'s batch does not come with the others (a paused runner)', async () => {
      const started = Date.now();
      const { previews } = await replay(
        (at, rows, thread) => {
          thread.preview(rows.slice(at, at + 7));
        },
        { previewMs: 60_000, apart: (at) => at === 7 },
      );
      // Every other batch claimed its preview; the one apart rolled back after a turn, not after a minute.
      expect(previews.committed).to.be.above(0);
      expect(Date.now() - started).to.be.below(30_000);
    });

    it('shows no reader a preview, and rolls it back after its time when no batch comes (the sync failed or is slow)', async () => {
      const seen: { checkpoint?: string; resources?: number } = {};
      let count = 0;
      const { previews } = await replay(
        async (at, rows, thread, file) => {
          count = batches(rows);
          if (at !== 14) return;
          thread.preview(rows.slice(at, at + 7));
          // The preview is applied and its transaction open: another connection sees the last commit.
          await sleep(30);
          const db = openSqlite(file);
          try {
            seen.checkpoint = db.prepare<[], { position: string }>("SELECT position FROM checkpoints WHERE consumer = 'read-models'").get()!.position;
            seen.resources = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM rm_resources').get()!.n;
          } finally {
            db.close();
          }
          // Its time passes with no batch: rolled back, and the batches then are applied as without it.
          await sleep(250);
        },
        { previewMs: 200 },
      );
      expect(count).to.be.above(3);
      expect(previews).to.deep.equal({ posted: 1, committed: 0 });
      const rows = committedRows(join(dir, 'events.db'));
      expect(seen.checkpoint).to.equal(rows[13]!.position);
      // rm_resources holds at most what the batches before 14 created, none of the preview's.
      expect(seen.resources).to.be.at.most(rows.slice(0, 14).filter((r) => r.type === 'ResourceCreated').length);
    });

    it('commits nothing of a group whose WAL sync failed', async () => {
      const file = join(tempDir(), 'read-models.db');
      const local = new SqliteReadStore(file);
      const usage = usageTarget(local);
      await usage.prepare();
      const thread = new ReadSideThread(file, { oneCommit: true, preview: true, previewMs: 100 });
      let fail: (error: Error) => void = () => {};
      const store = new SqliteEventStore(join(tempDir(), 'events.db'), { walSync: () => new Promise<void>((_, reject) => (fail = reject)) });
      store.onCommitted((rows) => thread.preview(rows));
      try {
        // The thread runs (a batch started it); then a group of the log is committed and its sync fails.
        await onReadSideThread(thread, usage).apply([], '00000000000000000001');
        const logged = committedRows(join(dir, 'events.db')).slice(0, 7);
        const appends = logged.map((row) =>
          store.appendToStream(row.stream, [{ id: row.id, type: row.type, data: JSON.parse(row.data), metadata: JSON.parse(row.metadata) }], 'any').catch((error: unknown) => error),
        );
        await sleep(20);
        expect(thread.previews.posted).to.equal(1);
        fail(new Error('disk gone'));
        for (const outcome of await Promise.all(appends)) expect(String(outcome)).to.match(/disk gone/);
        await sleep(300);
        const stored = rowsOf(file);
        expect(stored.checkpoints).to.deep.equal([{ consumer: 'usage', position: '00000000000000000001' }]);
        for (const [table, rows] of Object.entries(stored)) if (table !== 'checkpoints') expect(rows, table).to.deep.equal([]);
        expect(thread.previews.committed).to.equal(0);
      } finally {
        await thread.close();
        await store.close().catch(() => undefined);
        await local.close();
      }
    });
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
