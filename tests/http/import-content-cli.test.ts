import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { importContentCli } from '../../infra/cli/import-content-cli.js';
import { collectionWithSchema, v1 } from '../support/content.js';
import { send } from '../support/delivery-seed.js';
import { startTestService, type TestService } from '../support/service.js';
import { runCli as run } from '../support/cli.js';
import { TEST_EMBEDDINGS_CACHE } from '../support/embeddings.js';
import { tempDir } from '../support/temp.js';
import { openSqlite } from '../../infra/sqlite/open.js';
import { apiOf, startChildService } from '../support/child-service.js';

const ndjson = (lines: readonly unknown[]): string => {
  const file = join(tempDir(), 'content.ndjson');
  writeFileSync(file, lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n');
  return file;
};

/** The leases of a data directory's projections and reactors, by name. */
function leases(dataDir: string): Record<string, { holder: string; epoch: number; expires_at: number }> {
  const db = openSqlite(join(dataDir, 'read-models.db'), { readonly: true });
  try {
    return Object.fromEntries(db.prepare<[], { name: string; holder: string; epoch: number; expires_at: number }>('SELECT name, holder, epoch, expires_at FROM leases').all().map(({ name, ...lease }) => [name, lease]));
  } finally {
    db.close();
  }
}

/** The importer on a data directory, with the settings the test service runs with. */
const importInto = (dataDir: string, args: readonly string[], env: Record<string, string> = { LOG_LEVEL: 'silent' }) =>
  run((out, err) => importContentCli([...args, '--data-dir', dataDir], { EMBEDDINGS_CACHE_DIR: TEST_EMBEDDINGS_CACHE, ...env }, out, err));

/** A collection with a schema and a delivery API `site` that lists it, read with a bearer token (from the service `s` runs now), every page. */
async function deliveredCollection(s: TestService, alias: string): Promise<{ key: string; count: (s: TestService) => Promise<number> }> {
  const key = await collectionWithSchema(s, alias);
  const api = await s.api('POST', v1(s, '/api/'), { name: 'Site', prefix: 'site' });
  expect(api.status, JSON.stringify(api.body)).to.equal(201);
  expect((await s.api('POST', v1(s, `/api/${api.body.key}/collections/`), { folder: key, allowed_methods: ['get_many', 'get_one'] })).status).to.equal(201);
  const apiKey = await s.api('POST', v1(s, '/permissions/delivery-api/api-keys/'), { role: null });
  const bearer = await s.api('POST', v1(s, `/permissions/delivery-api/api-keys/${apiKey.body.key}/bearer-token/`));
  return {
    key,
    count: async (now) => {
      let served = 0;
      for (let url: string | undefined = `${now.service.urls.delivery}/${now.env}/site/${alias}/?limit=100`; url; ) {
        const r = await send(url, 'GET', `Bearer ${bearer.body.bearer_token}`);
        expect(r.status, JSON.stringify(r.body)).to.equal(200);
        served += r.body.results.length;
        url = r.body.next ?? undefined;
      }
      return served;
    },
  };
}

describe('npm run import:content: resources from NDJSON through the command path, in its own process on the data directory', function () {
  this.timeout(120_000);

  describe('with no service running on the data directory', () => {
    let dataDir: string;
    let s: TestService | null = null;
    after(async () => s?.stop());

    it('loads every good line (by the collection path), reports each bad one with its line number and the API\'s answer, projects what it wrote; a service started after serves it', async () => {
      s = await startTestService();
      dataDir = s.dataDir;
      const articles = await deliveredCollection(s, 'articles');
      await s.stop();
      s = null;

      const lines: unknown[] = Array.from({ length: 500 }, (_, i) => ({ data: { title: `Article ${i}`, views: i } }));
      lines[4] = '{"data": {"title": "cut off"';
      lines[6] = { data: { title: 5 } };
      lines[9] = { data: { title: 'x' }, unknown_field: true };
      lines[11] = [1, 2];
      const before = leases(dataDir);
      const r = await importInto(dataDir, ['--collection', 'articles', '--in', ndjson(lines)]);
      expect(r.code, r.err).to.equal(1);
      // It took the projections' leases (each epoch raised) and let them go; no reactor's (cascades, webhooks, scheduler).
      const after = leases(dataDir);
      for (const name of ['delivery-index-search', 'read-models', 'revisions', 'usage']) expect(after[name]!.epoch, name).to.equal(before[name]!.epoch + 1);
      for (const name of ['cascades', 'webhooks', 'scheduler']) expect(after[name], name).to.deep.equal(before[name]);
      expect(Object.values(after).every((lease) => lease.expires_at <= Date.now()), 'none held after it').to.equal(true);
      expect(r.err).to.match(/^line 5: 422 .*not valid JSON.*"error_code":"validation_error"/m);
      expect(r.err).to.match(/^line 7: 422 .*"error_code":"validation_error"/m);
      expect(r.err).to.match(/^line 10: 422 /m);
      expect(r.err).to.match(/^line 12: 422 .*"error_code":"validation_error"/m);
      expect(r.err.match(/^line /gm)).to.have.length(4);
      // Not a terminal: no progress bar.
      expect(r.err).not.to.include('importing [');
      expect(JSON.parse(r.out)).to.include({ collection: articles.key, lines: 500, accepted: 496, refused: 4, stopped_at_line: null, projected: true });

      // Started after the import as ROLE api, which applies no projection: the read models and the delivery index already hold every line.
      s = await startTestService({ ROLE: 'api' }, dataDir);
      const managed = await s.api('GET', v1(s, `/collections/${articles.key}/resources/?limit=1`));
      expect(managed.body.count).to.equal(496);
      expect(await articles.count(s)).to.equal(496);
      // The writer is the user of bootstrap.json's token, as for the API write it stands for.
      const [first] = (await s.api('GET', v1(s, `/collections/${articles.key}/resources/?limit=1`))).body.results;
      const events = await s.api('GET', v1(s, `/events/?entity_type=resource&entity_key=${first.key}`));
      expect(events.body.results[0]).to.deep.include({ event_type: 'create', actor_type: 'user' });
      expect(events.body.results[0].actor.key).to.be.a('string');
    });

    it('refuses a data directory without bootstrap.json with exit code 2, writing nothing', async () => {
      const r = await importInto(tempDir(), ['--collection', 'articles', '--in', ndjson([{ data: { title: 'x' } }])]);
      expect(r.code).to.equal(2);
      expect(r.err).to.match(/bootstrap\.json/);
    });
  });

  it('writes beside a service running in another process, which serves every line once the import ends', async () => {
    const dataDir = tempDir();
    const child = await startChildService(dataDir, { EMBEDDINGS_CACHE_DIR: TEST_EMBEDDINGS_CACHE });
    try {
      const api = apiOf(child);
      const env = child.bootstrap.environment;
      const folder = await collectionWithSchema({ env, api }, 'elsewhere');
      const r = await importInto(dataDir, ['--collection', 'elsewhere', '--in', ndjson(Array.from({ length: 400 }, (_, i) => ({ external_id: `far-${i}`, data: { title: `Far ${i}` } })))], {});
      expect(r.code, r.err).to.equal(0);
      expect(JSON.parse(r.out)).to.include({ accepted: 400, projected: true });
      // The default log level (warnings and errors on standard error): nothing, not even the lease tries the running service wins.
      expect(r.err, 'nothing logged').to.equal('');
      expect((await api('GET', v1({ env }, `/collections/${folder}/resources/?limit=1`))).body.count).to.equal(400);
      const found = await api('GET', v1({ env }, `/collections/${folder}/resources/?external_id=far-399`));
      expect(found.body.results).to.have.length(1);
    } finally {
      child.process.kill('SIGTERM');
      await child.exited;
    }
  });

  describe('while a service runs on the same data directory', () => {
    let s: TestService;
    let articles: Awaited<ReturnType<typeof deliveredCollection>>;
    const count = async () => (await s.api('GET', v1(s, `/collections/${articles.key}/resources/?limit=1`))).body.count as number;
    before(async () => {
      s = await startTestService();
      articles = await deliveredCollection(s, 'articles');
    });
    after(async () => s?.stop());

    it('writes through the command path while the service projects: the service serves every line once the import ends', async () => {
      const before = await count();
      const r = await importInto(s.dataDir, ['--collection', articles.key, '--in', ndjson(Array.from({ length: 300 }, (_, i) => ({ data: { title: `Beside ${i}` } })))]);
      expect(r.code, r.err).to.equal(0);
      expect(JSON.parse(r.out)).to.include({ accepted: 300, refused: 0, projected: true });
      // The import waited for the service's checkpoints: no waiting here.
      expect(await count()).to.equal(before + 300);
      expect(await articles.count(s)).to.equal(before + 300);
      // The service still writes after it.
      expect((await s.api('POST', v1(s, `/collections/${articles.key}/resources/`), { data: { title: 'After' } })).status).to.equal(201);
    });

    it('refuses a line exactly as the API refuses the same write (status, error code, detail)', async () => {
      for (const body of [{ data: { title: 5 } }, { data: { title: 'x', views: -1 } }, { data: { title: 'x' }, mode: 'sometimes' }, { external_id: 'bad id!', data: { title: 'x' } }]) {
        const { external_id: externalId, ...rest } = body as Record<string, unknown>;
        const api =
          externalId === undefined
            ? await s.api('POST', v1(s, `/collections/${articles.key}/resources/?wait=false`), body)
            : await s.api('PUT', v1(s, `/collections/${articles.key}/resources/?wait=false&external_id=${encodeURIComponent(String(externalId))}`), rest);
        expect(api.status, JSON.stringify(body)).to.equal(422);
        const r = await importInto(s.dataDir, ['--collection', articles.key, '--in', ndjson([body])]);
        expect(r.code).to.equal(1);
        const [, status, answer] = /^line 1: (\d+) (.*)$/m.exec(r.err) ?? [];
        expect(Number(status), r.err).to.equal(api.status);
        expect(JSON.parse(answer!)).to.deep.include({ error_code: api.body.error_code, detail: api.body.detail });
      }
    });

    it('upserts the lines with external_id: a second run updates them instead of adding more', async () => {
      const file = (suffix: string) => ndjson(Array.from({ length: 50 }, (_, i) => ({ external_id: `ext-${i}`, data: { title: `Upserted ${i}${suffix}` } })));
      const before = await count();
      expect((await importInto(s.dataDir, ['--collection', articles.key, '--in', file('')])).code).to.equal(0);
      expect(await count()).to.equal(before + 50);
      const again = await importInto(s.dataDir, ['--collection', articles.key, '--in', file(' again')]);
      expect(again.code, again.err).to.equal(0);
      expect(await count()).to.equal(before + 50);
      const list = await s.api('GET', v1(s, `/collections/${articles.key}/resources/?external_id=ext-7`));
      const data = await s.api('GET', v1(s, `/collections/${articles.key}/resources/${list.body.results[0].key}/data/`));
      expect(data.body.title).to.equal('Upserted 7 again');
    });

    it('stops at the first bad line with --strict', async () => {
      const lines = Array.from({ length: 200 }, (_, i) => (i === 20 ? { data: { title: 5 } } : { data: { title: `Strict ${i}` } }));
      const r = await importInto(s.dataDir, ['--collection', articles.key, '--in', ndjson(lines), '--strict', '--concurrency', '1']);
      expect(r.code).to.equal(1);
      expect(JSON.parse(r.out)).to.include({ refused: 1, stopped_at_line: 21, accepted: 20 });
      expect(JSON.parse(r.out).lines).to.equal(21);
    });

    it('shows a progress bar on a terminal', async () => {
      const tty = new PassThrough() as PassThrough & { isTTY: boolean; columns: number; cursorTo(): boolean; clearLine(): boolean; moveCursor(): boolean };
      Object.assign(tty, { isTTY: true, columns: 120, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
      const shown: string[] = [];
      tty.on('data', (chunk: Buffer) => shown.push(chunk.toString()));
      const out = new PassThrough();
      const code = await importContentCli(['--collection', articles.key, '--in', ndjson([{ data: { title: 'Shown' } }]), '--data-dir', s.dataDir], { EMBEDDINGS_CACHE_DIR: TEST_EMBEDDINGS_CACHE, LOG_LEVEL: 'silent' }, out, tty);
      expect(code).to.equal(0);
      expect(shown.join('')).to.include('importing [');
    });

    it('refuses bad arguments, an unknown collection or environment and a missing file with exit code 2', async () => {
      const good = ndjson([{ data: { title: 'x' } }]);
      const before = await s.service.projections.runner('read-models')!.checkpoint;
      for (const args of [
        ['--in', good],
        ['--collection', articles.key],
        ['--collection', articles.key, '--in', join(tempDir(), 'none.ndjson')],
        ['--collection', 'nope', '--in', good],
        ['--collection', articles.key, '--in', good, '--env', 'nope'],
        ['--collection', articles.key, '--in', good, '--concurrency', '0'],
        ['--nope'],
      ]) {
        const r = await importInto(s.dataDir, args);
        expect(r.code, args.join(' ')).to.equal(2);
      }
      expect(s.service.projections.runner('read-models')!.checkpoint).to.equal(before);
    });
  });
});
