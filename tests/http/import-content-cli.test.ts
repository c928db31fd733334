import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_CONCURRENCY, importContentCli } from '../../infra/cli/import-content-cli.js';
import { collectionWithSchema, eventually, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';
import { runCli as run } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const ndjson = (lines: readonly unknown[]): string => {
  const file = join(tempDir(), 'content.ndjson');
  writeFileSync(file, lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n');
  return file;
};

describe('npm run import:content: resources from NDJSON through the management API', function () {
  this.timeout(120_000);
  let s: TestService;
  let articles: string;
  const count = async () => (await s.api('GET', v1(s, `/collections/${articles}/resources/?limit=1`))).body.count as number;

  before(async () => {
    s = await startTestService();
    articles = await collectionWithSchema(s, 'articles');
  });
  after(async () => s?.stop());

  it('loads every good line (by the collection path, URL and token from bootstrap.json), reports each bad one with its line number and goes on', async () => {
    const lines: unknown[] = Array.from({ length: 500 }, (_, i) => ({ data: { title: `Article ${i}`, views: i } }));
    lines[4] = '{"data": {"title": "cut off"';
    lines[6] = { data: { title: 5 } };
    lines[9] = { data: { title: 'x' }, unknown_field: true };
    lines[11] = [1, 2];
    const r = await run((out, err) => importContentCli(['--collection', 'articles', '--in', ndjson(lines), '--data-dir', s.dataDir], {}, out, err));
    expect(r.code, r.err).to.equal(1);
    expect(r.err).to.match(/^line 5: not sent .*not JSON/m);
    expect(r.err).to.match(/^line 7: 422 .*"error_code":"validation_error"/m);
    expect(r.err).to.match(/^line 10: 422 /m);
    expect(r.err).to.match(/^line 12: not sent .*not a JSON object/m);
    expect(JSON.parse(r.out)).to.include({ collection: articles, lines: 500, accepted: 496, refused: 4, stopped_at_line: null });
    await eventually(count, (n) => n === 496);
  });

  it('upserts the lines with external_id: a second run updates them instead of adding more', async () => {
    const file = (suffix: string) => ndjson(Array.from({ length: 50 }, (_, i) => ({ external_id: `ext-${i}`, data: { title: `Upserted ${i}${suffix}` } })));
    const args = (f: string) => ['--collection', articles, '--in', f, '--url', s.base, '--token', s.token, '--env', s.env];
    const before = await count();
    expect((await run((out, err) => importContentCli(args(file('')), {}, out, err))).code).to.equal(0);
    await eventually(count, (n) => n === before + 50);
    expect((await run((out, err) => importContentCli(args(file(' again')), {}, out, err))).code).to.equal(0);
    const list = await eventually(
      () => s.api('GET', v1(s, `/collections/${articles}/resources/?external_id=ext-7`)),
      (r) => r.status === 200 && r.body.results?.[0]?.key !== undefined,
    );
    const data = await eventually(() => s.api('GET', v1(s, `/collections/${articles}/resources/${list.body.results[0].key}/data/`)), (r) => r.body?.title === 'Upserted 7 again');
    expect(data.body.title).to.equal('Upserted 7 again');
    expect(await count()).to.equal(before + 50);
  });

  it('stops at the first bad line with --strict', async () => {
    const lines = Array.from({ length: 200 }, (_, i) => (i === 20 ? { data: { title: 5 } } : { data: { title: `Strict ${i}` } }));
    const r = await run((out, err) => importContentCli(['--collection', articles, '--in', ndjson(lines), '--data-dir', s.dataDir, '--strict', '--concurrency', '1'], {}, out, err));
    expect(r.code).to.equal(1);
    expect(JSON.parse(r.out)).to.include({ refused: 1, stopped_at_line: 21 });
    expect(JSON.parse(r.out).lines).to.be.below(200);
  });

  it('refuses bad arguments, an unknown collection and a missing file with exit code 2', async () => {
    const good = ndjson([{ data: { title: 'x' } }]);
    for (const args of [['--in', good], ['--collection', articles], ['--collection', articles, '--in', join(tempDir(), 'none.ndjson')], ['--collection', 'nope', '--in', good], ['--collection', articles, '--in', good, '--concurrency', '0'], ['--nope']]) {
      const r = await run((out, err) => importContentCli([...args, '--data-dir', s.dataDir], {}, out, err));
      expect(r.code, args.join(' ')).to.equal(2);
    }
  });

  it(`keeps at most --concurrency requests in flight (${DEFAULT_CONCURRENCY} by default) and sends every line once, against a model of the API that holds each create`, async () => {
    // A model of the two routes the importer calls: each create is answered a second later, so requests pile up to the limit.
    let inFlight = 0;
    let most = 0;
    let creates = 0;
    const server: Server = createServer((req, res) => {
      if (req.method === 'GET') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ key: 'k1' }));
      inFlight++;
      most = Math.max(most, inFlight);
      req.resume().on('end', () =>
        setTimeout(() => {
          inFlight--;
          creates++;
          res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
        }, 1_000),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const [extra, limit] of [[['--concurrency', '5'], 5], [[], DEFAULT_CONCURRENCY]] as const) {
        const file = ndjson(Array.from({ length: limit * 2 + 1 }, (_, i) => ({ data: { title: `Held ${i}` } })));
        most = 0;
        creates = 0;
        const r = await run((out, err) => importContentCli(['--collection', 'articles', '--in', file, '--url', url, '--token', 't', '--env', 'e', ...extra], {}, out, err));
        expect(r.code, r.err).to.equal(0);
        expect(creates).to.equal(limit * 2 + 1);
        expect(most, extra.join(' ') || 'default').to.equal(limit);
      }
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
