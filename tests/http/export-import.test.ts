import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportCli } from '../../infra/cli/export-cli.js';
import { importCli } from '../../infra/cli/import-cli.js';
import { Database } from '../../infra/sqlite/driver.js';
import { runCli } from '../support/cli.js';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';
import { tempDir } from '../support/temp.js';

const lines = (file: string): string[] => readFileSync(file, 'utf8').split('\n').filter(Boolean);

describe('npm run export and npm run import: the event log as NDJSON, into an empty data directory', function () {
  this.timeout(60_000);
  let s: TestService;
  let articles: string;
  let exported: string;

  before(async () => {
    s = await startTestService();
    articles = await collectionWithSchema(s, 'articles');
    for (const title of ['One', 'Two', 'Three']) expect((await s.api('POST', v1(s, `/collections/${articles}/resources/`), { data: { title } })).status).to.equal(201);
    exported = join(tempDir(), 'log.ndjson');
    const r = await runCli((out, err) => exportCli(['--data-dir', s.dataDir, '--out', exported], {}, out, err));
    expect(r.code, r.err).to.equal(0);
    expect(r.out).to.match(/^exported \d+ events to /);
    // Not a terminal: no progress bar.
    expect(r.err).to.equal('');
  });
  after(async () => s?.stop());

  it('writes one line per stored event, oldest first, with its stream, revision, position, type, data, metadata, id, time and stored hash', () => {
    const db = new Database(join(s.dataDir, 'events.db'), { readonly: true });
    const rows = db.prepare<[], { position: number; id: string; stream: string; revision: number; type: string; data: string; metadata: string; hash: string }>('SELECT * FROM events ORDER BY position').all();
    db.close();
    const written = lines(exported).map((l) => JSON.parse(l));
    expect(written).to.have.length(rows.length);
    written.forEach((line, i) => {
      const row = rows[i]!;
      expect(line).to.deep.equal({
        position: String(row.position).padStart(20, '0'),
        stream: row.stream,
        revision: row.revision,
        id: row.id,
        type: row.type,
        created: JSON.parse(row.metadata).timestamp,
        data: JSON.parse(row.data),
        metadata: JSON.parse(row.metadata),
        hash: row.hash,
      });
    });
  });

  it('imports into an empty data directory: the same events and hashes, and the same answers from the read API', async () => {
    const target = tempDir();
    const r = await runCli((out, err) => importCli(['--data-dir', target, '--in', exported], {}, out, err));
    expect(r.code, r.err).to.equal(0);
    expect(r.out).to.match(/imported \d+ events/).and.match(/rebuilt the projections/);
    const again = join(tempDir(), 'again.ndjson');
    expect((await runCli((out, err) => exportCli(['--data-dir', target, '--out', again], {}, out, err))).code).to.equal(0);
    expect(readFileSync(again, 'utf8')).to.equal(readFileSync(exported, 'utf8'));

    // A start on the imported directory finishes the bootstrap the events hold: a new token for the same administrator.
    const moved = await startTestService({}, target);
    try {
      expect(moved.env).to.equal(s.env);
      for (const path of [`/collections/${articles}/resources/?ordering=created_at`, '/collections/tree/', '/locales/', '/events/?ordering=timestamp']) {
        const [before, after] = [await s.api('GET', v1(s, path)), await moved.api('GET', v1(moved, path))];
        expect(after.status, path).to.equal(200);
        expect(after.body.results ?? after.body, path).to.deep.equal(before.body.results ?? before.body);
      }
      const verified = await moved.api('GET', '/v1/global-events/verify/');
      expect(verified.body).to.include({ verified: true, checked: lines(exported).length });
    } finally {
      await moved.stop();
    }
  });

  it('stops at the first line that breaks the hash chain, naming it, and leaves the target without events', async () => {
    const all = lines(exported);
    const at = all.findIndex((l) => JSON.parse(l).type === 'ResourceCreated');
    const forged = JSON.parse(all[at]!);
    forged.data.name = 'forged';
    const broken = join(tempDir(), 'broken.ndjson');
    writeFileSync(broken, [...all.slice(0, at), JSON.stringify(forged), ...all.slice(at + 1)].map((l) => `${l}\n`).join(''));
    const target = tempDir();
    const r = await runCli((out, err) => importCli(['--data-dir', target, '--in', broken], {}, out, err));
    expect(r.code).to.equal(1);
    expect(r.err).to.contain(`line ${at + 1}: event ${forged.id}`).and.contain('breaks the hash chain').and.contain('nothing was imported');
    expect(readdirSync(target)).to.deep.equal([]);
  });

  it('refuses a line that is not an event, and a data directory that already has events', async () => {
    const garbled = join(tempDir(), 'garbled.ndjson');
    const all = lines(exported);
    writeFileSync(garbled, `${all[0]}\n${all[1]}\n{"position": 3\n`);
    const target = tempDir();
    const bad = await runCli((out, err) => importCli(['--data-dir', target, '--in', garbled], {}, out, err));
    expect(bad.code).to.equal(1);
    expect(bad.err).to.contain('line 3: not JSON');
    expect(existsSync(join(target, 'events.db'))).to.equal(false);

    const full = await runCli((out, err) => importCli(['--data-dir', s.dataDir, '--in', exported], {}, out, err));
    expect(full.code).to.equal(1);
    expect(full.err).to.contain('events.db exists');

    for (const args of [[], ['--in'], ['--nope', 'x']]) {
      expect((await runCli((out, err) => importCli(args, {}, out, err))).code, args.join(' ')).to.equal(2);
    }
    expect((await runCli((out, err) => exportCli([], {}, out, err))).code).to.equal(2);
  });
});
