import { expect } from 'chai';
import { QueryPool } from '../../infra/sqlite/query-pool.js';
import { SqliteSearchIndex } from '../../infra/sqlite/search-index.js';
import { tempDir } from '../support/temp.js';

/** A statement that runs for a while (a few hundred milliseconds here): rows counted one by one. */
const SLOW = 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000) SELECT count(*) AS c FROM n';

describe('the query pool\'s idle threads: how many parts a full-text search is cut into (docs/decisions/0376)', function () {
  this.timeout(30_000);

  it('counts a task from when it is asked until its thread is free again, past its budget too', async () => {
    const file = `${tempDir()}/delivery.db`;
    await new SqliteSearchIndex(file).close();
    const pool = new QueryPool(file, 50);
    try {
      expect(pool.idle).to.equal(pool.threads);
      const slow = pool.run({ kind: 'rows', sql: SLOW, params: [] });
      expect(pool.idle).to.equal(Math.max(1, pool.threads - 1));
      const others = Array.from({ length: pool.threads }, () => pool.run({ kind: 'rows', sql: SLOW, params: [] }));
      // Never below one: a search is always at least one part.
      expect(pool.idle).to.equal(1);
      const answers = await Promise.allSettled([slow, ...others]);
      // Answered 503 past the 50 ms budget, while the statements still run to their next budget check.
      expect(answers.every((a) => a.status === 'rejected')).to.equal(true);
      const started = Date.now();
      while (pool.idle < pool.threads && Date.now() - started < 10_000) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(pool.idle).to.equal(pool.threads);
    } finally {
      await pool.close();
    }
  });
});
