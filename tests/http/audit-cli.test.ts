import { expect } from 'chai';
import { Database } from '../../infra/sqlite/driver.js';
import { join } from 'node:path';
import { replayCli } from '../../infra/cli/replay-cli.js';
import { verifyCli } from '../../infra/cli/verify-cli.js';
import { toPosition } from '../../infra/sqlite/open.js';
import { collectionWithSchema, v1 } from '../support/content.js';
import { runCli as run } from '../support/cli.js';
import { startTestService, type TestService } from '../support/service.js';

describe('auditors on the command line (npm run replay, npm run verify) and a tampered SQLite file', () => {
  let s: TestService;
  let articles: string;

  before(async () => {
    s = await startTestService();
    articles = await collectionWithSchema(s, 'articles');
    expect((await s.api('POST', v1(s, `/collections/${articles}/resources/`), { data: { title: 'One' } })).status).to.equal(201);
  });
  after(async () => s?.stop());

  it('npm run replay prints the same events as the HTTP replay, with the same filters', async () => {
    const http = await fetch(`${s.base}${v1(s, `/events/stream/?collection=${articles}`)}`, { headers: { authorization: `Bearer ${s.token}` } });
    const expected = (await http.text()).split('\n').filter(Boolean);
    const cli = await run((out, err) => replayCli(['--data-dir', s.dataDir, '--env', s.env, '--collection', articles], {}, out, err));
    expect(cli.code).to.equal(0);
    expect(cli.out.split('\n').filter(Boolean)).to.deep.equal(expected);

    const limited = await run((out, err) => replayCli(['--data-dir', s.dataDir, '--event-type', 'OrganizationCreated,UserCreated', '--limit', '1'], {}, out, err));
    expect(limited.out.split('\n').filter(Boolean).map((l) => JSON.parse(l).type)).to.deep.equal(['OrganizationCreated']);
  });

  it('npm run replay refuses bad arguments with exit code 2 and the usage', async () => {
    for (const args of [['--from', 'abc'], ['--limit', '0'], ['--nope'], ['--event-type', 'a b']]) {
      const r = await run((out, err) => replayCli(['--data-dir', s.dataDir, ...args], {}, out, err));
      expect(r.code, args.join(' ')).to.equal(2);
      expect(r.err).to.contain('usage: npm run replay');
    }
  });

  it('npm run verify and the verify endpoint report the first edited row of events.db with its position', async () => {
    const clean = await run((out, err) => verifyCli(['--data-dir', s.dataDir], {}, out, err));
    expect(clean.code).to.equal(0);
    expect(JSON.parse(clean.out)).to.include({ verified: true, first_break: null });

    const db = new Database(join(s.dataDir, 'events.db'));
    const row = db.prepare<[], { position: number; stream: string }>(`SELECT position, stream FROM events WHERE type = 'ResourceCreated' LIMIT 1`).get()!;
    db.prepare(`UPDATE events SET data = json_set(data, '$.name', 'forged') WHERE position = ?`).run(row.position);
    db.close();

    const tampered = await run((out, err) => verifyCli(['--data-dir', s.dataDir], {}, out, err));
    expect(tampered.code).to.equal(1);
    const report = JSON.parse(tampered.out);
    expect(report).to.include({ verified: false, checked: row.position });
    expect(report.first_break).to.include({ position: toPosition(row.position), stream: row.stream, revision: 0, reason: 'hash_mismatch' });

    const endpoint = await s.api('GET', '/v1/global-events/verify/');
    expect(endpoint.status).to.equal(200);
    expect(endpoint.body.first_break).to.deep.equal(report.first_break);
  });
});
