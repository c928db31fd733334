import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import { createPublicKey, verify } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pino } from 'pino';
import { checkpointMessage } from '../../domain/audit-checkpoint.js';
import { chainHash, GENESIS } from '../../infra/audit/hash-chain.js';
import { auditBundleCli, VERIFIER_FILE } from '../../infra/cli/audit-bundle-cli.js';
import { auditKeygenCli } from '../../infra/cli/audit-keygen-cli.js';
import { exportCli } from '../../infra/cli/export-cli.js';
import { importCli } from '../../infra/cli/import-cli.js';
import { verifyCli } from '../../infra/cli/verify-cli.js';
import { loadConfig } from '../../infra/config.js';
import { startService } from '../../infra/service.js';
import { Database } from '../../infra/sqlite/driver.js';
import { runCli } from '../support/cli.js';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';
import { tempDir } from '../support/temp.js';

type Row = { position: number; id: string; stream: string; revision: number; type: string; data: string; metadata: string; hash: string };

/** The forgery an insider with the data files can make: one event rewritten and every later hash recomputed. */
function rewriteHistory(dataDir: string, position: number, change: (data: Record<string, unknown>) => void): void {
  const db = new Database(join(dataDir, 'events.db'));
  try {
    db.transaction(() => {
      const rows = db.prepare<[], Row>('SELECT * FROM events ORDER BY position').all();
      const set = db.prepare('UPDATE events SET data = ?, hash = ? WHERE position = ?');
      let previous = GENESIS;
      for (const row of rows) {
        let data = row.data;
        if (row.position === position) {
          const parsed = JSON.parse(data);
          change(parsed);
          data = JSON.stringify(parsed);
        }
        previous = chainHash(previous, { ...row, data });
        if (row.position >= position) set.run(data, previous, row.position);
      }
    })();
  } finally {
    db.close();
  }
}

describe('signed audit checkpoints, npm run verify --public-key and the evidence bundle', function () {
  this.timeout(90_000);
  const keys = tempDir();
  const privateKey = join(keys, 'audit.pem');
  const publicKey = join(keys, 'audit.pub.pem');
  const logged: Record<string, unknown>[] = [];
  let s: TestService;
  let articles: string;

  /** The service with the signing key, its log lines kept (the test harness' own service is silent). */
  async function start(dataDir: string, env: Record<string, string> = {}): Promise<TestService> {
    const lines = new PassThrough();
    lines.on('data', (chunk: Buffer) => chunk.toString().split('\n').filter(Boolean).forEach((l) => logged.push(JSON.parse(l))));
    const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', DELIVERY_PORT: '0', HOST: '127.0.0.1', PLAN: 'pro', RATE_LIMIT_PER_MINUTE: 'off', AUDIT_SIGNING_KEY_FILE: privateKey, AUDIT_CHECKPOINT_EVENTS: '5', ...env });
    const service = await startService(config, pino({ level: 'info' }, lines));
    const file = service.bootstrap!;
    return {
      service,
      dataDir,
      env: file.environment,
      token: file.management_token,
      base: service.urls.base,
      delivery: file.delivery_url,
      api: async (method, path, body, headers = {}) => {
        const r = await fetch(`${service.urls.base}${path}`, {
          method,
          headers: { authorization: `Bearer ${file.management_token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await r.text();
        return { status: r.status, body: text ? JSON.parse(text) : null, headers: r.headers };
      },
      get: async () => {
        throw new Error('unused');
      },
      stop: () => service.stop(),
    };
  }

  /** Waits until the signer has read the whole log (its runner's checkpoint is the head). */
  async function signed(t: TestService): Promise<void> {
    const db = new Database(join(t.dataDir, 'events.db'), { readonly: true });
    const head = db.prepare<[], { p: number }>('SELECT MAX(position) AS p FROM events').get()!.p;
    db.close();
    expect(await t.service.projections.runner('audit-checkpoints')!.waitFor(String(head).padStart(20, '0'), 10_000)).to.equal(true);
  }

  before(async () => {
    const made = await runCli((out, err) => auditKeygenCli(['--private', privateKey, '--public', publicKey], out, err));
    expect(made.code, made.err).to.equal(0);
    s = await start(tempDir());
    articles = await collectionWithSchema(s, 'articles');
    for (let i = 0; i < 12; i++) expect((await s.api('POST', v1(s, `/collections/${articles}/resources/`), { data: { title: `Article ${i}` } })).status).to.equal(201);
    await signed(s);
    // The other projections pass the checkpoints by.
    expect(s.service.projections.status().filter((p) => p.stopped)).to.deep.equal([]);
  });
  after(async () => s?.stop());

  it('npm run audit:keygen writes an Ed25519 pair in PEM, the private key readable by its owner only, and never overwrites one', async () => {
    expect(createPublicKey(readFileSync(publicKey)).asymmetricKeyType).to.equal('ed25519');
    expect(readFileSync(privateKey, 'utf8')).to.contain('BEGIN PRIVATE KEY');
    expect(execFileSync('stat', ['-c', '%a', privateKey]).toString().trim()).to.equal('600');
    const again = await runCli((out, err) => auditKeygenCli(['--private', privateKey, '--public', join(keys, 'other.pem')], out, err));
    expect(again.code).to.equal(1);
    expect((await runCli((out, err) => auditKeygenCli(['--private', privateKey], out, err))).code).to.equal(2);
  });

  it('signs the head every AUDIT_CHECKPOINT_EVENTS events into a stream of its own: each signature and head hash holds, and each is logged at info', async () => {
    const r = await s.api('GET', '/v1/audit/checkpoints/');
    expect(r.status).to.equal(200);
    const checkpoints = r.body.results as { position: string; events: number; head_hash: string; time: string; signature: string; key: string }[];
    expect(r.body.count).to.equal(checkpoints.length).and.be.greaterThan(3);
    const db = new Database(join(s.dataDir, 'events.db'), { readonly: true });
    const key = createPublicKey(readFileSync(publicKey));
    let before = 0;
    for (const cp of checkpoints) {
      expect(verify(null, Buffer.from(checkpointMessage(cp)), key, Buffer.from(cp.signature, 'base64')), cp.position).to.equal(true);
      const row = db.prepare<[number], { hash: string; n: number }>('SELECT hash, (SELECT COUNT(*) FROM events e WHERE e.position <= events.position) AS n FROM events WHERE position = ?').get(Number(cp.position))!;
      expect(row).to.deep.equal({ hash: cp.head_hash, n: cp.events });
      // Its own checkpoints are not counted: five other events between two checkpoints.
      const others = db.prepare<[number, number], { n: number }>(`SELECT COUNT(*) AS n FROM events WHERE position > ? AND position <= ? AND stream != 'audit-checkpoints'`).get(before, Number(cp.position))!.n;
      expect(others, cp.position).to.equal(5);
      before = Number(cp.position);
    }
    db.close();
    const lines = logged.filter((l) => l.msg === 'audit checkpoint signed').map((l) => l.audit_checkpoint);
    expect(lines).to.deep.include.members(checkpoints.map(({ position, events, head_hash, signature }) => ({ position, events, head_hash, signature })));
    expect(logged.find((l) => l.msg === 'audit checkpoint signed')!.level).to.equal(30);
  });

  it('GET /v1/audit/checkpoints/ pages like other management lists and refuses callers without full access', async () => {
    const all = (await s.api('GET', '/v1/audit/checkpoints/')).body;
    const page = await s.api('GET', '/v1/audit/checkpoints/?limit=2&offset=1');
    expect(page.body.results).to.deep.equal(all.results.slice(1, 3));
    expect(page.body.count).to.equal(all.count);
    expect(page.body.next).to.contain('offset=3');
    expect(page.body.previous).to.match(/limit=2/).and.not.match(/offset/);
    for (const query of ['limit=0', 'limit=x', 'offset=-1', 'offset=1.5', 'limit=1&limit=2']) {
      const bad = await s.api('GET', `/v1/audit/checkpoints/?${query}`);
      expect(bad.status, query).to.equal(422);
      expect(bad.body.error_code).to.equal('validation_error');
    }
    const anonymous = await fetch(`${s.base}/v1/audit/checkpoints/`);
    expect(anonymous.status).to.equal(401);
    expect(((await anonymous.json()) as { error_code: string }).error_code).to.equal('authentication_failed');

    const rolesPath = v1(s, '/permissions/management-api/roles/');
    const keysPath = v1(s, '/permissions/management-api/api-keys/');
    const limited = (await s.api('POST', rolesPath, { name: 'readers', full_access: false })).body.key;
    const full = (await s.api('POST', rolesPath, { name: 'admins', full_access: true })).body.key;
    const asKey = async (role: string, path: string) => {
      const k = (await s.api('POST', keysPath, { role })).body;
      return s.api('GET', path, undefined, { authorization: `Simple ${k.public_key}:${k.secret_key}` });
    };
    const refused = await asKey(limited, '/v1/audit/checkpoints/');
    expect(refused.status).to.equal(403);
    expect(refused.body.error_code).to.equal('permission_denied');
    expect((await asKey(full, '/v1/audit/checkpoints/')).status).to.equal(200);
    // The public key is no secret: any management credentials read it.
    const key = await asKey(limited, '/v1/audit/public-key/');
    expect(key.status).to.equal(200);
    expect(key.body).to.deep.include({ algorithm: 'Ed25519', public_key: readFileSync(publicKey, 'utf8') });
    expect((await fetch(`${s.base}/v1/audit/public-key/`)).status).to.equal(401);
  });

  it('answers 404 public_key_not_found without a signing key, and an empty list of checkpoints', async () => {
    const plain = await startTestService();
    try {
      const r = await plain.api('GET', '/v1/audit/public-key/');
      expect(r.status).to.equal(404);
      expect(r.body.error_code).to.equal('public_key_not_found');
      expect((await plain.api('GET', '/v1/audit/checkpoints/')).body).to.deep.equal({ count: 0, next: null, previous: null, results: [] });
    } finally {
      await plain.stop();
    }
  });

  it('refuses to start with the signing key inside the data directory, or a key that is not Ed25519', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'key.pem'), readFileSync(privateKey));
    const config = loadConfig({ DATA_DIR: dir, PORT: '0', DELIVERY_PORT: '0', AUDIT_SIGNING_KEY_FILE: join(dir, 'key.pem') });
    let error: unknown = null;
    await startService(config, pino({ level: 'silent' })).catch((e: unknown) => (error = e));
    expect(String(error)).to.contain('inside the data directory');
    const config2 = loadConfig({ DATA_DIR: tempDir(), PORT: '0', DELIVERY_PORT: '0', AUDIT_SIGNING_KEY_FILE: publicKey });
    error = null;
    await startService(config2, pino({ level: 'silent' })).catch((e: unknown) => (error = e));
    expect(String(error)).to.contain('not a readable private key');
  });

  it('signs after AUDIT_CHECKPOINT_SECONDS when fewer events came, and resumes after a restart without signing a head twice', async () => {
    const dir = tempDir();
    let t = await start(dir, { AUDIT_CHECKPOINT_EVENTS: '1000', AUDIT_CHECKPOINT_SECONDS: '1' });
    try {
      await signed(t);
      const deadline = Date.now() + 5000;
      let body;
      do {
        await new Promise((resolve) => setTimeout(resolve, 200));
        body = (await t.api('GET', '/v1/audit/checkpoints/')).body;
      } while (body.count === 0 && Date.now() < deadline);
      expect(body.count).to.equal(1);
      // Nothing new but its own checkpoint: no second one.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await t.api('GET', '/v1/audit/checkpoints/')).body.count).to.equal(1);
    } finally {
      await t.stop();
    }
    t = await start(dir, { AUDIT_CHECKPOINT_EVENTS: '3' });
    try {
      await collectionWithSchema(t, 'later');
      await signed(t);
      const results = (await t.api('GET', '/v1/audit/checkpoints/')).body.results as { events: number }[];
      expect(results.length).to.be.greaterThan(1);
      const counts = results.map((c) => c.events);
      expect(counts).to.deep.equal([...counts].sort((a, b) => a - b));
      expect(new Set(counts).size).to.equal(counts.length);
    } finally {
      await t.stop();
    }
    const verified = await runCli((out, err) => verifyCli(['--data-dir', dir, '--public-key', publicKey], {}, out, err));
    expect(verified.code, verified.out).to.equal(0);
  });

  it('catches a rewrite of the history with every later hash recomputed: plain verify accepts it, verify --public-key and the bundle script fail at the first checkpoint after it', async () => {
    await s.stop();
    const bundleOf = async (name: string) => {
      const file = join(tempDir(), name);
      const r = await runCli((out, err) => auditBundleCli(['--data-dir', s.dataDir, '--out', file, '--public-key', publicKey], {}, out, err));
      expect(r.code, r.err).to.equal(0);
      return file;
    };
    const script = join(tempDir(), 'verify-bundle.mjs');
    writeFileSync(script, readFileSync(VERIFIER_FILE));
    const runScript = (bundle: string) => spawnSync(process.execPath, [script, bundle, publicKey], { encoding: 'utf8' });

    const clean = await runCli((out, err) => verifyCli(['--data-dir', s.dataDir, '--public-key', publicKey], {}, out, err));
    expect(clean.code, clean.out).to.equal(0);
    const cleanReport = JSON.parse(clean.out);
    expect(cleanReport.checkpoints).to.include({ verified: true, first_failure: null });
    const untouched = await bundleOf('untouched.ndjson');
    const good = runScript(untouched);
    expect(good.status, good.stderr).to.equal(0);
    expect(good.stdout).to.contain(`${cleanReport.checkpoints.checked} checkpoints signed`);

    // An export imported elsewhere keeps its checkpoints, and they still vouch for it (matched by count).
    const exported = join(tempDir(), 'log.ndjson');
    expect((await runCli((out, err) => exportCli(['--data-dir', s.dataDir, '--out', exported], {}, out, err))).code).to.equal(0);
    const copy = tempDir();
    expect((await runCli((out, err) => importCli(['--data-dir', copy, '--in', exported], {}, out, err))).code).to.equal(0);
    const copied = await runCli((out, err) => verifyCli(['--data-dir', copy, '--public-key', publicKey], {}, out, err));
    expect(copied.code, copied.out).to.equal(0);
    expect(JSON.parse(copied.out).checkpoints).to.deep.equal(cleanReport.checkpoints);

    const db = new Database(join(s.dataDir, 'events.db'), { readonly: true });
    const target = db.prepare<[], { position: number }>(`SELECT position FROM events WHERE type = 'ResourceCreated' ORDER BY position LIMIT 1 OFFSET 6`).get()!.position;
    db.close();
    rewriteHistory(s.dataDir, target, (data) => (data.name = 'forged'));

    const plain = await runCli((out, err) => verifyCli(['--data-dir', s.dataDir], {}, out, err));
    expect(plain.code, 'plain verify accepts the recomputed chain').to.equal(0);
    expect(JSON.parse(plain.out)).to.include({ verified: true });

    const checkpoints = (cleanReport.checkpoints.checked as number) > 0 ? await signedCheckpoints(s.dataDir) : [];
    const first = checkpoints.findIndex((c) => Number(c.position) >= target);
    expect(first).to.be.greaterThan(0);
    const forged = await runCli((out, err) => verifyCli(['--data-dir', s.dataDir, '--public-key', publicKey], {}, out, err));
    expect(forged.code).to.equal(1);
    const report = JSON.parse(forged.out);
    expect(report.first_break).to.equal(null);
    expect(report.checkpoints.first_failure).to.include({ checkpoint: first + 1, position: checkpoints[first]!.position, reason: 'head_mismatch' });
    expect(report.checkpoints.last_signed.position).to.equal(checkpoints[first - 1]!.position);
    expect(forged.err).to.contain(`checkpoint ${first + 1} (position ${checkpoints[first]!.position}`);

    const bad = runScript(await bundleOf('forged.ndjson'));
    expect(bad.status).to.equal(1);
    expect(bad.stderr).to.contain(`position ${checkpoints[first]!.position}`).and.contain('rewritten');
    expect(runScript(untouched).status).to.equal(0);
  });

  it('prints the bundle verifier in docs/guides/auditor.md exactly as the file the bundle carries', () => {
    const guide = readFileSync('docs/guides/auditor.md', 'utf8');
    const block = /<!-- verify-bundle\.mjs -->\n```js\n([\s\S]*?)```\n/.exec(guide);
    expect(block, 'the guide has the script between its markers').not.to.equal(null);
    expect(block![1]).to.equal(readFileSync(VERIFIER_FILE, 'utf8'));
    expect(readFileSync(VERIFIER_FILE, 'utf8')).not.to.match(/from '\.|from "\./);
  });
});

async function signedCheckpoints(dataDir: string): Promise<{ position: string; events: number }[]> {
  const db = new Database(join(dataDir, 'events.db'), { readonly: true });
  try {
    return db
      .prepare<[], { data: string }>(`SELECT data FROM events WHERE stream = 'audit-checkpoints' ORDER BY position`)
      .all()
      .map((r) => JSON.parse(r.data));
  } finally {
    db.close();
  }
}
