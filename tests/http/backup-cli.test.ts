import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { backupCli } from '../../infra/cli/backup-cli.js';
import { verifyCli } from '../../infra/cli/verify-cli.js';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';
import { runCli as run } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

/** `npm run backup`'s program as a process of its own, as an operator runs it beside the service. */
function backupProcess(dataDir: string, outDir: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'infra/cli/backup.ts', '--data-dir', dataDir, '--out', outDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.once('exit', (code) => resolve({ code, out, err }));
  });
}

describe('npm run backup: a consistent copy of a running service, taken while it writes', function () {
  this.timeout(180_000);
  let s: TestService;
  let articles: string;

  before(async () => {
    s = await startTestService();
    articles = await collectionWithSchema(s, 'articles');
  });
  after(async () => s?.stop());

  it('copies every SQLite file and the small files while creates go on; verify passes on the copy; a service on the copy answers as the original', async () => {
    const statuses: number[] = [];
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) statuses.push((await s.api('POST', v1(s, `/collections/${articles}/resources/?wait=false`), { data: { title: `During ${i}` } })).status);
    })();
    while (statuses.length < 50) await new Promise((r) => setTimeout(r, 10));
    const before = statuses.length;
    const copy = join(tempDir(), 'backup');
    const backup = await backupProcess(s.dataDir, copy);
    const during = statuses.length - before;
    writing = false;
    await writer;
    expect(backup.code, backup.err).to.equal(0);
    expect(during, 'creates answered while the backup ran').to.be.greaterThan(0);
    expect(statuses.every((status) => status === 201 || status === 202)).to.equal(true);

    const report = JSON.parse(backup.out);
    expect(report.files.map((f: { file: string }) => f.file)).to.have.members(['read-models.db', 'delivery.db', 'signatures.db', 'events.db', 'bootstrap.json', 'jwt-secret']);
    // The event store after every other database file.
    expect(report.files.findIndex((f: { file: string }) => f.file === 'events.db')).to.equal(report.files.filter((f: { file: string }) => f.file.endsWith('.db')).length - 1);
    expect(readdirSync(copy).sort()).to.deep.equal(['bootstrap.json', 'delivery.db', 'events.db', 'jwt-secret', 'read-models.db', 'signatures.db']);
    expect(statSync(join(copy, 'jwt-secret')).mode & 0o777).to.equal(statSync(join(s.dataDir, 'jwt-secret')).mode & 0o777);

    const verified = await run((out, err) => verifyCli(['--data-dir', copy], {}, out, err));
    expect(verified.code, verified.out + verified.err).to.equal(0);
    expect(JSON.parse(verified.out)).to.include({ verified: true, first_break: null });

    // The copy: its own service, the same token (same JWT secret), the same answers for what it holds.
    const restored = await startTestService({}, copy);
    try {
      const list = async (t: TestService) => (await t.api('GET', v1(t, `/collections/${articles}/resources/?limit=100`))).body;
      const copied = await list(restored);
      expect(copied.count).to.be.greaterThan(0);
      for (const doc of copied.results.slice(0, 20)) {
        const path = v1(s, `/collections/${articles}/resources/${doc.key}/`);
        const [a, b] = [await s.api('GET', path), await restored.api('GET', path)];
        expect(b.status).to.equal(200);
        expect(b.body).to.deep.equal(a.body);
      }
      expect((await list(s)).count).to.be.at.least(copied.count);
    } finally {
      await restored.stop();
    }
  });

  it('refuses a target that is not empty, a missing --out and a folder with no event store, with exit code 2', async () => {
    const full = tempDir();
    mkdirSync(join(full, 'x'));
    writeFileSync(join(full, 'x', 'file'), 'x');
    for (const args of [['--data-dir', s.dataDir, '--out', join(full, 'x')], ['--data-dir', s.dataDir], ['--data-dir', tempDir(), '--out', join(tempDir(), 'b')], ['--nope']]) {
      const r = await run((out, err) => backupCli(args, {}, out, err));
      expect(r.code, args.join(' ')).to.equal(2);
    }
  });
});
