import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { apiOf, startChildService, until, type ChildService } from '../support/child-service.js';
import { v1 } from '../support/content.js';
import { deliveryFixture } from '../support/delivery-fixture.js';
import type { Reply, TestService } from '../support/service.js';
import { tempDir } from '../support/temp.js';

/** The delivery processes a primary started: its node child processes (under tsx it has an esbuild child too). */
const childrenOf = (pid: number): number[] => {
  try {
    return execFileSync('pgrep', ['-x', 'node', '-P', String(pid)], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

/** A child service seen as the test service the delivery fixture builds on (management calls, delivery reads). */
function asTestService(child: ChildService): TestService {
  const api = apiOf(child);
  const get = async (url: string, headers: Record<string, string> = {}): Promise<Reply> => {
    const r = await fetch(url, { headers });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : null, headers: r.headers };
  };
  return { env: child.bootstrap.environment, delivery: child.bootstrap.delivery_url, base: child.base, token: child.bootstrap.management_token, api, get } as unknown as TestService;
}

describe('several delivery processes sharing the delivery port (npm start -- --delivery-processes N)', function () {
  this.timeout(120_000);

  it('serves delivery reads from N processes that each answer a publish at once, and starts again one that dies', async () => {
    const child = await startChildService(tempDir(), { DELIVERY_PROCESSES: '2', PLAN: 'pro' });
    try {
      const s = asTestService(child);
      expect(await until(async () => (await fetch(`${new URL(s.delivery).origin}/healthz`).catch(() => null))?.status === 200, 45_000)).to.equal(true);
      expect(await until(() => childrenOf(child.process.pid!).length === 2, 45_000), 'two delivery processes').to.equal(true);
      const f = await deliveryFixture(s);
      const path = `site/articles/${f.a[2]}/`;
      const titles = async (): Promise<string[]> => {
        const answers: string[] = [];
        // Enough reads that each process answers (and caches) some: the primary hands connections round-robin.
        for (let i = 0; i < 12; i++) {
          const r = await fetch(`${s.delivery}/${path}`, { headers: { connection: 'close' } });
          expect(r.status).to.equal(200);
          answers.push(((await r.json()) as { data: { title: { en: string } } }).data.title.en);
        }
        return answers;
      };
      const served = await until(async () => (await titles()).every((t) => t === 'Other'), 10_000);
      expect(served, `every process serves it: ${JSON.stringify(await (await fetch(`${s.delivery}/${path}`)).text())}`).to.equal(true);
      // A publish answered: every process answers the new payload from its next read on, cached or not.
      const revision = await s.api('POST', v1(s, `/collections/${f.articles}/resources/${f.a[2]}/revisions/`), { data: { title: { en: 'Changed' }, views: 8 } });
      expect(revision.status, JSON.stringify(revision.body)).to.equal(201);
      const published = await s.api('POST', v1(s, `/collections/${f.articles}/resources/${f.a[2]}/revisions/${revision.body.key}/publish/`), {});
      expect(published.status, JSON.stringify(published.body)).to.equal(200);
      expect(await titles()).to.deep.equal(Array(12).fill('Changed'));

      const [first] = childrenOf(child.process.pid!);
      process.kill(first!, 'SIGKILL');
      expect(await until(() => childrenOf(child.process.pid!).length === 2 && !childrenOf(child.process.pid!).includes(first!), 20_000), 'started again').to.equal(true);
      expect(await until(async () => (await titles().catch(() => [])).every((t) => t === 'Changed'), 20_000)).to.equal(true);

      const primary = child.process.pid!;
      const kids = childrenOf(primary);
      child.process.kill('SIGTERM');
      expect(await child.exited).to.equal(0);
      expect(await until(() => kids.every((pid) => !existsSync(`/proc/${pid}`)), 10_000), 'the delivery processes end with it').to.equal(true);
    } finally {
      if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
    }
  });
});
