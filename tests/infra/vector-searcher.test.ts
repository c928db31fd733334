import { expect } from 'chai';
import { join } from 'node:path';
import { SqliteSearchIndex } from '../../infra/sqlite/search-index.js';
import { openSqlite } from '../../infra/sqlite/open.js';
import { SqliteSearchTables } from '../../infra/sqlite/search-tables.js';
import { VectorSearcher } from '../../infra/sqlite/vector-searcher.js';
import type { Scored, VectorQuery } from '../../projections/search-ports.js';
import { tempDir } from '../support/temp.js';

const ENV = 'e1';
const SCOPE = `${ENV}/f`;

/** A delivery index file holding 50 documents with a 4-wide vector in field `title`. */
async function indexFile(): Promise<string> {
  const file = join(tempDir(), 'delivery.db');
  const index = new SqliteSearchIndex(file);
  await index.unitOfWork('t', '00000000000000000001', async (tx) => {
    for (let i = 0; i < 50; i++) {
      const key = `k${String(i).padStart(2, '0')}`;
      await tx.index({ env: ENV, folder: 'f', key, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', owner: null, data: { title: key } });
      await tx.indexSearch(ENV, 'f', key, { texts: [], vectors: [{ field: 'title', locale: '', vector: Float32Array.from([Math.cos(i / 10), Math.sin(i / 10), i % 3, 1]) }] });
    }
  });
  await index.close();
  return file;
}

const query = (limit: number): VectorQuery => ({ vector: Float32Array.from([1, 0.2, 1, 1]), fields: ['title'], locale: null, limit });

/** k-NN queries on a worker thread (docs/decisions/0183): the same hits as on the caller's thread. */
describe('VectorSearcher: vector queries on a worker thread', () => {
  let file: string;
  let inThread: (env: string, folder: string, scope: string, q: VectorQuery) => Scored[];
  let closeDb: () => void;

  before(async () => {
    file = await indexFile();
    const db = openSqlite(file, { vectors: true });
    const tables = new SqliteSearchTables(db);
    inThread = (env, folder, scope, q) => tables.searchVectors(env, folder, scope, q);
    closeDb = () => db.close();
  });
  after(() => closeDb());

  it('answers from the worker what the caller\'s thread answers, several queries at once', async () => {
    let fallbacks = 0;
    const searcher = new VectorSearcher(file, (...args) => {
      fallbacks++;
      return inThread(...args);
    });
    try {
      const answers = await Promise.all([3, 10, 50].map((limit) => searcher.search(ENV, 'f', SCOPE, query(limit))));
      expect(answers.map((hits) => hits.length)).to.deep.equal([3, 10, 50]);
      [3, 10, 50].forEach((limit, i) => expect(answers[i]).to.deep.equal(inThread(ENV, 'f', SCOPE, query(limit))));
      expect(await searcher.search(ENV, 'other', 'e1/other', query(5))).to.deep.equal([]);
      expect(fallbacks).to.equal(0);
    } finally {
      await searcher.close();
    }
  });

  it('answers on the caller\'s thread when the worker cannot open the file', async () => {
    let fallbacks = 0;
    const searcher = new VectorSearcher(join(tempDir(), 'missing', 'delivery.db'), (...args) => {
      fallbacks++;
      return inThread(...args);
    });
    try {
      expect(await searcher.search(ENV, 'f', SCOPE, query(4))).to.deep.equal(inThread(ENV, 'f', SCOPE, query(4)));
      expect(await searcher.search(ENV, 'f', SCOPE, query(2))).to.have.length(2);
      expect(fallbacks).to.equal(2);
    } finally {
      await searcher.close();
    }
  });

  it('passes an error of the query itself on to the caller', async () => {
    const searcher = new VectorSearcher(file, inThread);
    try {
      const bad: VectorQuery = { ...query(5), limit: -1 };
      let error: unknown = null;
      await searcher.search(ENV, 'f', SCOPE, bad).catch((e: unknown) => (error = e));
      expect(error).to.be.instanceOf(Error);
    } finally {
      await searcher.close();
    }
  });
});
