import { expect } from 'chai';
import { join } from 'node:path';
import { Database } from '../../infra/sqlite/driver.js';
import { deliveryFixture } from '../support/delivery-fixture.js';
import { startTestService, type TestService } from '../support/service.js';

/** Rewrites a stopped service's delivery index as an earlier release stored it: payloads as JSON text, format version 0. */
function downgradeDeliveryIndex(dataDir: string): void {
  const db = new Database(join(dataDir, 'delivery.db'));
  try {
    db.exec('UPDATE docs SET data = json(data) WHERE data IS NOT NULL');
    db.pragma('user_version = 0');
    const types = db.prepare<[], { t: string }>('SELECT DISTINCT typeof(data) AS t FROM docs WHERE data IS NOT NULL').all();
    expect(types.map((r) => r.t)).to.deep.equal(['text']);
  } finally {
    db.close();
  }
}

describe('HTTP: a data directory whose delivery index holds JSON text keeps being served (docs/decisions/0210)', function () {
  this.timeout(60_000);
  let s: TestService | undefined;
  after(() => s?.stop());

  it('converts the index at start and answers every delivery read as before', async () => {
    s = await startTestService({ PLAN: 'pro' });
    const f = await deliveryFixture(s);
    const reads = [
      'site/articles/',
      'site/articles/?where__views__gte=5&sort=-views',
      'site/articles/?where__tags__includes=tech&fields=title,tags',
      'site/articles/?where__meta.color__in=red,blue&populate=author',
      `site/articles/${f.a[1]}`,
    ];
    const before = [];
    for (const read of reads) before.push(await f.get(read));
    for (const [i, r] of before.entries()) expect(r.status, reads[i]).to.equal(200);
    const dataDir = s.dataDir;
    await s.stop();
    s = undefined;
    downgradeDeliveryIndex(dataDir);

    s = await startTestService({ PLAN: 'pro' }, dataDir);
    // bootstrap.json keeps the first start's address; this start listens on new ports.
    const delivery = `${s.service.urls.delivery}/${s.env}`;
    for (const [i, read] of reads.entries()) {
      const r = await s.get(`${delivery}/${read}`);
      expect(r.status, read).to.equal(200);
      expect(r.body, read).to.deep.equal(before[i]!.body);
      expect(r.headers.get('etag'), read).to.equal(before[i]!.headers.get('etag'));
    }
    const db = new Database(join(dataDir, 'delivery.db'), { readonly: true });
    try {
      expect(db.prepare<[], { t: string }>('SELECT DISTINCT typeof(data) AS t FROM docs WHERE data IS NOT NULL').all().map((r) => r.t)).to.deep.equal(['blob']);
    } finally {
      db.close();
    }
  });
});
