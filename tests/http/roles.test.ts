import { expect } from 'chai';
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite, type SqliteDb } from '../../infra/sqlite/open.js';
import { apiOf, startChildService, startRoleProcess, type ChildApi, type ChildService, type RoleProcess, until } from '../support/child-service.js';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService } from '../support/service.js';
import { tempDir } from '../support/temp.js';
import { startReceiver } from '../support/webhook-receiver.js';

const SETTINGS = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_DELAYS_MS: '100,100,100,100,100', PLAN: 'pro' };
/** The projections whose checkpoints are stored with every batch (the reactors store theirs now and then, decision 0083). */
const PROJECTIONS = ['read-models', 'revisions', 'usage'];

const alive = (child: { process: { exitCode: number | null; signalCode: string | null } }): boolean => child.process.exitCode === null && child.process.signalCode === null;

/** The read models and the delivery index of a data directory, table by table, rows sorted: what a projection derives from the log alone. */
function derived(dataDir: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  // The read models (not the reactors' own tables of attempts and due times, which hold clock times) and the delivery index's documents (not the engine's search structures).
  for (const [file, keep] of [
    ['read-models.db', /^rm_(?!webhook|schedul)/],
    ['delivery.db', /^docs$/],
  ] as const) {
    const db = openSqlite(join(dataDir, file), { readonly: true });
    try {
      const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all();
      for (const { name } of tables) {
        if (!keep.test(name)) continue;
        out[`${file}:${name}`] = db
          .prepare(`SELECT * FROM "${name}"`)
          .all()
          // The row ids are the engine's own (the order of inserts), not part of the model.
          .map((row) => JSON.stringify({ ...(row as object), rowid: undefined }, (_key, value: unknown) => (Buffer.isBuffer(value) ? value.toString('hex') : value)))
          .sort();
      }
    } finally {
      db.close();
    }
  }
  return out;
}

describe('process roles: workers, api processes and leases over one data directory (several real processes)', function () {
  this.timeout(60_000);
  const dataDir = tempDir();
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let worker1: RoleProcess;
  let worker2: RoleProcess;
  let api1: ChildService;
  let api2: ChildService;
  let a1: ChildApi;
  let a2: ChildApi;
  let env: string;
  let folder: string;
  let readModels: SqliteDb;
  let events: SqliteDb;

  before(async function () {
    this.timeout(120_000);
    receiver = await startReceiver(200);
    // The first worker takes every lease; the api process makes the first start's tenancy.
    worker1 = await startRoleProcess(dataDir, 'worker', SETTINGS);
    api1 = await startChildService(dataDir, { ...SETTINGS, ROLE: 'api' });
    [worker2, api2] = await Promise.all([startRoleProcess(dataDir, 'worker', SETTINGS), startChildService(dataDir, { ...SETTINGS, ROLE: 'api' })]);
    [a1, a2] = [apiOf(api1), apiOf(api2)];
    env = api1.bootstrap.environment;
    folder = await collectionWithSchema({ env, api: a1 }, 'shared');
    readModels = openSqlite(join(dataDir, 'read-models.db'), { readonly: true });
    events = openSqlite(join(dataDir, 'events.db'), { readonly: true });
  });

  after(async () => {
    readModels?.close();
    events?.close();
    for (const child of [worker1, worker2, api1, api2]) if (child && alive(child)) child.process.kill('SIGKILL');
    await receiver?.close();
  });

  const head = (): string => String(events.prepare<[], { p: number }>('SELECT max(position) AS p FROM events').get()?.p ?? 0).padStart(20, '0');
  const checkpoints = (): Record<string, string> =>
    Object.fromEntries(readModels.prepare<[], { consumer: string; position: string }>('SELECT consumer, position FROM checkpoints').all().map((row) => [row.consumer, row.position]));

  it("serves on a worker's port only /healthz, /readyz and /metrics", async () => {
    const origin = `http://127.0.0.1:${worker2.port}`;
    expect((await fetch(`${origin}/readyz`)).status).to.equal(200);
    expect(await (await fetch(`${origin}/metrics`)).text()).to.match(/^# HELP/m);
    const other = await fetch(`${origin}/v1/${env}/collections/tree/`, { headers: { authorization: `Bearer ${api1.bootstrap.management_token}` } });
    expect(other.status).to.equal(404);
    expect(await other.json()).to.include({ error_code: 'route_not_found' });
    expect((await fetch(`${origin}/openapi.json`)).status, 'no API document either').to.equal(404);
  });

  it('answers wait=true writes in either api process from read models that hold them (no projection runs in either)', async () => {
    for (let i = 0; i < 6; i++) {
      const [mine, other] = i % 2 === 0 ? [a1, a2] : [a2, a1];
      const created = await mine('POST', v1({ env }, `/collections/${folder}/resources/?wait=true`), { data: { title: `both ${i}` } });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body.current_revision, 'answered from the read model').to.be.a('string');
      const read = await other('GET', v1({ env }, `/collections/${folder}/resources/${created.body.key}/data/`));
      expect(read.status, 'the other api process reads it at once').to.equal(200);
      expect(read.body).to.deep.include({ title: `both ${i}` });
    }
  });

  it('answers a collection delete 204 in an api process once the cascades reactor of a worker handled it', async () => {
    const doomed = await collectionWithSchema({ env, api: a1 }, 'doomed');
    for (const title of ['one', 'two']) expect((await a1('POST', v1({ env }, `/collections/${doomed}/resources/?wait=true`), { data: { title } })).status).to.equal(201);
    const started = Date.now();
    const deleted = await a2('DELETE', v1({ env }, `/collections/tree/collection/?key=${doomed}`));
    expect(deleted.status, 'the cascade done and read (202: still running)').to.equal(204);
    expect(Date.now() - started).to.be.below(5000);
    expect((await a1('GET', v1({ env }, `/collections/${doomed}/resources/`))).status, 'gone for the other api process too').to.equal(404);
  });

  it('with two workers alive sends each webhook once (no webhook-id twice) and fires a schedule once', async () => {
    const hook = await a1('POST', v1({ env }, '/webhooks/'), { url: receiver.url, collections: [folder] });
    expect(hook.status).to.equal(201);
    const keys: string[] = [];
    for (let i = 0; i < 5; i++) keys.push((await a2('POST', v1({ env }, `/collections/${folder}/resources/?wait=true`), { data: { title: `hooked ${i}` }, mode: 'draft' })).body.key);
    const revision = (await a1('GET', v1({ env }, `/collections/${folder}/resources/${keys[0]}/revisions/`))).body.results[0].key as string;
    const publishAt = new Date(Date.now() + 1000).toISOString();
    const scheduled = await a1('POST', v1({ env }, `/collections/${folder}/resources/${keys[0]}/revisions/${revision}/publish/`), { publish_at: publishAt });
    expect(scheduled.status).to.equal(202);
    const published = async () => (await a2('GET', v1({ env }, `/collections/${folder}/resources/${keys[0]}/revisions/${revision}/`))).body.status === 'published';
    expect(await until(published, 10_000), 'the schedule fired').to.equal(true);
    const deliveries = async () => (await a1('GET', v1({ env }, `/webhooks/${hook.body.key}/deliveries/`))).body;
    expect(await until(async () => (await deliveries()).results.every((d: { status: string }) => d.status === 'delivered'), 10_000)).to.equal(true);
    // A little longer: a second sender would send them again now.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const ids = receiver.received.map((r) => String(r.headers['webhook-id']));
    expect(ids.length).to.be.greaterThan(5);
    expect(new Set(ids).size, 'no webhook-id twice').to.equal(ids.length);
    const publishes = await a1('GET', v1({ env }, `/events/?entity_type=resource&entity_key=${keys[0]}&event_type=update`));
    expect(publishes.body.count, 'the schedule fired once').to.equal(1);
  });

  it('when the worker holding the leases is killed while writes go on, the other takes over within 5 s and no checkpoint goes backwards', async () => {
    const seen: Record<string, string[]> = {};
    const watch = setInterval(() => {
      for (const [consumer, position] of Object.entries(checkpoints())) (seen[consumer] ??= []).push(position);
    }, 20);
    let writing = true;
    const statuses: number[] = [];
    const writes = (async () => {
      for (let i = 0; writing; i++) statuses.push((await (i % 2 ? a1 : a2)('POST', v1({ env }, `/collections/${folder}/resources/?wait=false`), { data: { title: `during ${i}` } })).status);
    })();
    try {
      await new Promise((resolve) => setTimeout(resolve, 700));
      const before = receiver.received.length;
      worker1.process.kill('SIGKILL');
      await worker1.exited;
      const killedAt = Date.now();
      const atKill = head();
      const tookOver = await until(() => PROJECTIONS.every((p) => (checkpoints()[p] ?? '') >= atKill), 5000);
      const took = Date.now() - killedAt;
      expect(tookOver, `the projections passed ${atKill} within 5 s (${JSON.stringify(checkpoints())})`).to.equal(true);
      console.log(`      takeover: the projections passed the head at the kill ${took} ms after it`);
      await new Promise((resolve) => setTimeout(resolve, 700));
      writing = false;
      await writes;
      expect(statuses.every((s) => s === 202), JSON.stringify(statuses)).to.equal(true);
      // Every write is applied by the survivor; a wait=true write answers from it.
      const last = await a1('POST', v1({ env }, `/collections/${folder}/resources/?wait=true`), { data: { title: 'after the kill' } });
      expect(last.status).to.equal(201);
      expect(await until(() => PROJECTIONS.every((p) => (checkpoints()[p] ?? '') >= head()), 5000)).to.equal(true);
      for (const [consumer, positions] of Object.entries(seen)) {
        for (let i = 1; i < positions.length; i++) expect(positions[i]! >= positions[i - 1]!, `${consumer} went from ${positions[i - 1]} to ${positions[i]}`).to.equal(true);
      }
      // Across the takeover only a delivery in flight at the kill may come again, with the same webhook-id.
      const ids = receiver.received.map((r) => String(r.headers['webhook-id']));
      const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
      expect(twice.length, `repeated: ${twice.join(', ')}`).to.be.at.most(1);
      const sentAfter = await until(() => receiver.received.length > before, 5000);
      expect(sentAfter, `sent after the kill (${before} before): ${JSON.stringify(checkpoints())}`).to.equal(true);
    } finally {
      clearInterval(watch);
      writing = false;
      await writes;
    }
  });

  it('leaves read models equal to those of a single process run over the same log', async () => {
    expect(await until(() => PROJECTIONS.every((p) => (checkpoints()[p] ?? '') >= head()), 5000)).to.equal(true);
    for (const child of [api1, api2, worker2]) {
      child.process.kill('SIGTERM');
      await (child as { exited: Promise<unknown> }).exited;
    }
    const single = tempDir();
    for (const name of readdirSync(dataDir)) if (name.startsWith('events.db') || name === 'bootstrap.json' || name === 'jwt-secret') copyFileSync(join(dataDir, name), join(single, name));
    expect(existsSync(join(single, 'events.db'))).to.equal(true);
    const service = await startTestService(SETTINGS, single);
    await service.stop();
    const split = derived(dataDir);
    const one = derived(single);
    expect(Object.keys(split).length).to.be.greaterThan(5);
    expect(Object.keys(split).sort()).to.deep.equal(Object.keys(one).sort());
    for (const table of Object.keys(split)) {
      const missing = one[table]!.filter((row) => !split[table]!.includes(row));
      const extra = split[table]!.filter((row) => !one[table]!.includes(row));
      expect({ missing: missing.slice(0, 3), extra: extra.slice(0, 3), counts: [split[table]!.length, one[table]!.length] }, table).to.deep.equal({ missing: [], extra: [], counts: [one[table]!.length, one[table]!.length] });
    }
  });
});
