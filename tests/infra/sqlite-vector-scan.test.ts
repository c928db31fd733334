import { expect } from 'chai';
import { SqliteSearchIndex } from '../../infra/sqlite/search-index.js';
import { SqliteSearchTables } from '../../infra/sqlite/search-tables.js';
import { openSqlite, type SqliteDb } from '../../infra/sqlite/open.js';
import { kernelName, nearestRows, scriptKernel } from '../../infra/sqlite/vector-kernel.js';
import type { DeliveryDoc } from '../../projections/ports.js';
import type { SearchVector, VectorQuery } from '../../projections/search-ports.js';
import { ALL_FIELDS } from '../../projections/search-entries.js';
import { tempDir } from '../support/temp.js';

/** A seeded generator (Park-Miller), so that a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 48271) % 2147483647) / 2147483647;
}

const ENVS = ['main', 'staging'];
const FOLDERS = ['posts', 'pages'];
const FIELDS = ['title', 'body', ALL_FIELDS];
const LOCALES = ['', 'en', 'fr'];

describe('Vector search in memory (docs/decisions/0205)', () => {
  const next = random(205);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const vector = (dims: number): Float32Array => Float32Array.from({ length: dims }, () => (next() < 0.05 ? 0 : next() * 2 - 1));

  let file: string;
  let index: SqliteSearchIndex;
  let reader: SqliteDb;
  let tables: SqliteSearchTables;

  beforeEach(() => {
    file = `${tempDir()}/delivery.db`;
    index = new SqliteSearchIndex(file);
    reader = openSqlite(file, { vectors: true });
    tables = new SqliteSearchTables(reader);
  });
  afterEach(async () => {
    reader.close();
    await index.close();
  });

  const doc = (env: string, folder: string, key: string, data: Record<string, unknown> | null): DeliveryDoc => ({
    env, folder, key, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', owner: null, data,
  });

  /** Random entries: the embedded width on the three fields, a custom 7-wide vector, now and then a zero vector. */
  function entries(): SearchVector[] {
    const vectors: SearchVector[] = [];
    for (const field of FIELDS) {
      for (const locale of LOCALES) if (next() < 0.5) vectors.push({ field, locale, vector: vector(100) });
    }
    if (next() < 0.5) vectors.push({ field: 'embedding', locale: '', vector: vector(7) });
    if (next() < 0.05) vectors.push({ field: 'title', locale: 'en', vector: new Float32Array(100) });
    return vectors;
  }

  const put = (env: string, folder: string, key: string, published = true) =>
    index.unitOfWork('t', '00000000000000000001', async (tx) => {
      await tx.index(doc(env, folder, key, published ? { title: key } : null));
      if (published) await tx.indexSearch(env, folder, key, { texts: [], vectors: entries() });
    });

  function randomQuery(): { env: string; folder: string; query: VectorQuery } {
    const custom = next() < 0.2;
    const fields = custom ? ['embedding'] : FIELDS.filter(() => next() < 0.5);
    return {
      env: pick(ENVS),
      folder: pick(FOLDERS),
      query: { vector: vector(custom ? 7 : 100), fields: fields.length ? fields : ['title'], locale: pick([null, ...LOCALES]), limit: 1 + Math.floor(next() * 40) },
    };
  }

  /**
   * Both paths answer the same documents in the same order, at the same distances (float32
   * rounding apart), once the partitions the queries name are in memory.
   */
  async function expectSameAnswers(searches: number, on = tables): Promise<void> {
    const queries = Array.from({ length: searches }, randomQuery);
    for (const { env, folder, query } of queries) on.searchVectors(env, folder, `${env}/${folder}`, query);
    await on.vectorsLoaded();
    for (const { env, folder, query } of queries) {
      const scope = `${env}/${folder}`;
      const inMemory = on.searchVectors(env, folder, scope, query);
      const reference = on.searchVectorsInSqlite(env, folder, scope, query);
      expect(inMemory.map((hit) => hit.key), JSON.stringify({ env, folder, fields: query.fields, locale: query.locale, limit: query.limit })).to.deep.equal(
        reference.map((hit) => hit.key),
      );
      inMemory.forEach((hit, at) => expect(hit.score).to.be.closeTo(reference[at]!.score, 1e-5));
    }
  }

  async function seed(count: number): Promise<string[]> {
    const keys: string[] = [];
    for (let i = 0; i < count; i++) {
      const [env, folder, key] = [pick(ENVS), pick(FOLDERS), `k${i}`];
      await put(env, folder, key);
      keys.push(`${env} ${folder} ${key}`);
    }
    return keys;
  }

  it('answers what sqlite-vec answers on random vectors across collections, fields, locales and widths', async () => {
    await seed(240);
    await expectSameAnswers(150);
    expect(tables.vectorsInMemory().rows).to.be.greaterThan(0);
  });

  it('stays current as another connection re-indexes, unpublishes, deletes and adds documents', async () => {
    const keys = await seed(200);
    await expectSameAnswers(40);
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 25; i++) {
        const [env, folder, key] = pick(keys).split(' ') as [string, string, string];
        const action = next();
        if (action < 0.4) await put(env, folder, key);
        else if (action < 0.6) await put(env, folder, key, false);
        else if (action < 0.8) await index.unitOfWork('t', '00000000000000000002', (tx) => tx.remove(env, folder, key));
        else await put(pick(ENVS), pick(FOLDERS), `new${round}-${i}`);
      }
      if (round === 2) await index.unitOfWork('t', '00000000000000000003', (tx) => tx.removeFolder('main', 'pages'));
      await expectSameAnswers(40);
    }
    // A connection that starts now loads what the first one reached by catching up.
    const fresh = new SqliteSearchTables(reader);
    await expectSameAnswers(40, fresh);
  });

  it('stays current when writes land while its partitions are loading', async () => {
    const keys = await seed(150);
    for (const env of ENVS) for (const folder of FOLDERS) tables.searchVectors(env, folder, `${env}/${folder}`, { vector: vector(100), fields: FIELDS, locale: null, limit: 5 });
    const writes = keys.slice(0, 40).map((entry, i) => {
      const [env, folder, key] = entry.split(' ') as [string, string, string];
      return i % 3 === 0 ? index.unitOfWork('t', '00000000000000000005', (tx) => tx.remove(env, folder, key)) : put(env, folder, key);
    });
    await Promise.all([...writes, tables.vectorsLoaded()]);
    await expectSameAnswers(60);
  });

  it('loads its copy again when the changes it missed were trimmed from the log', async () => {
    await seed(120);
    await expectSameAnswers(20);
    for (let i = 0; i < 30; i++) await put(pick(ENVS), pick(FOLDERS), `k${i}`);
    // As the writer's trimming would: every change but the last is gone.
    const db = openSqlite(file, { vectors: true });
    db.prepare('DELETE FROM vec_changes WHERE seq < (SELECT MAX(seq) FROM vec_changes)').run();
    db.close();
    await expectSameAnswers(40);
  });

  it('answers through sqlite-vec while a partition loads in the background, then from memory', async () => {
    await seed(60);
    const query = { vector: vector(100), fields: [ALL_FIELDS], locale: null, limit: 10 };
    const first = tables.searchVectors('main', 'posts', 'main/posts', query);
    expect(tables.vectorsInMemory().rows).to.equal(0);
    await tables.vectorsLoaded();
    const stored = reader.prepare("SELECT COUNT(*) AS n FROM vec_100 WHERE scope = 'main/posts#*'").get() as { n: number };
    expect(stored.n).to.be.greaterThan(0);
    expect(tables.vectorsInMemory().rows).to.equal(stored.n);
    const again = tables.searchVectors('main', 'posts', 'main/posts', query);
    expect(again.map((hit) => hit.key)).to.deep.equal(first.map((hit) => hit.key));
  });

  /** The rows and float32 bytes one partition (every field of a collection) takes in memory, loaded alone. */
  async function loadedAlone(env: string, folder: string): Promise<{ rows: number; bytes: number }> {
    const alone = new SqliteSearchTables(reader);
    alone.searchVectors(env, folder, `${env}/${folder}`, { vector: vector(100), fields: [ALL_FIELDS], locale: null, limit: 5 });
    await alone.vectorsLoaded();
    return alone.vectorsInMemory();
  }

  it('keeps its budget of memory by dropping the partition searched least recently, and answers the same', async () => {
    await seed(200);
    const posts = await loadedAlone('main', 'posts');
    const pages = await loadedAlone('staging', 'pages');
    expect(posts.rows).to.be.greaterThan(0);
    expect(pages.rows).to.be.greaterThan(0);
    const bounded = new SqliteSearchTables(reader, {}, Math.max(posts.bytes, pages.bytes) + 1);
    const query = { vector: vector(100), fields: [ALL_FIELDS], locale: null, limit: 10 };
    const search = async (env: string, folder: string) => {
      bounded.searchVectors(env, folder, `${env}/${folder}`, query);
      await bounded.vectorsLoaded();
      return bounded.searchVectors(env, folder, `${env}/${folder}`, query);
    };
    await search('main', 'posts');
    expect(bounded.vectorsInMemory()).to.deep.equal(posts);
    const answer = await search('staging', 'pages');
    expect(bounded.vectorsInMemory(), 'the older partition is dropped').to.deep.equal(pages);
    expect(answer.map((hit) => hit.key)).to.deep.equal(bounded.searchVectorsInSqlite('staging', 'pages', 'staging/pages', query).map((hit) => hit.key));
    // Searched again, the dropped one is loaded again in place of the other.
    await search('main', 'posts');
    expect(bounded.vectorsInMemory()).to.deep.equal(posts);
    await expectSameAnswers(40, bounded);
  });

  it('never loads a partition larger than its whole budget: sqlite-vec answers it', async () => {
    await seed(60);
    const bounded = new SqliteSearchTables(reader, {}, 64);
    const query = { vector: vector(100), fields: [ALL_FIELDS], locale: null, limit: 10 };
    for (let i = 0; i < 3; i++) {
      const answer = bounded.searchVectors('main', 'posts', 'main/posts', query);
      await bounded.vectorsLoaded();
      expect(bounded.vectorsInMemory().rows).to.equal(0);
      expect(answer.map((hit) => hit.key)).to.deep.equal(bounded.searchVectorsInSqlite('main', 'posts', 'main/posts', query).map((hit) => hit.key));
    }
  });

  it('answers nothing for a width no vector has, or for no fields', async () => {
    await seed(20);
    expect(tables.searchVectors('main', 'posts', 'main/posts', { vector: vector(33), fields: ['title'], locale: null, limit: 5 })).to.deep.equal([]);
    expect(tables.searchVectors('main', 'posts', 'main/posts', { vector: vector(100), fields: [], locale: null, limit: 5 })).to.deep.equal([]);
  });

  it('scans with usearch where its package ships a binary for this platform (linux-x64, linux-arm64, macOS)', () => {
    const shipped = (process.platform === 'linux' && ['x64', 'arm64'].includes(process.arch)) || process.platform === 'darwin';
    expect(kernelName()).to.equal(shipped ? 'usearch' : 'javascript');
  });

  it(`scans with the ${kernelName()} kernel, which finds the rows the JavaScript scan finds`, () => {
    for (const [count, dims, k] of [[1000, 100, 20], [300, 7, 300], [50, 3, 80], [0, 100, 5]] as const) {
      const matrix = new Float32Array(count * dims);
      for (let row = 0; row < count; row++) {
        const v = vector(dims);
        const norm = Math.hypot(...v) || 1;
        v.forEach((x, j) => (matrix[row * dims + j] = x / norm));
      }
      const query = vector(dims);
      const norm = Math.hypot(...query);
      query.forEach((x, j) => (query[j] = x / norm));
      const fast = nearestRows(matrix, count, dims, query, k);
      const plain = scriptKernel(matrix, count, dims, query, k);
      expect(fast.rows).to.deep.equal(plain.rows);
      expect(fast.rows).to.have.length(Math.min(count, k));
      fast.distances.forEach((d, i) => expect(d).to.be.closeTo(plain.distances[i]!, 1e-5));
      // Nearest first, and the distance is 1 - the dot product.
      for (let i = 1; i < fast.distances.length; i++) expect(fast.distances[i]!).to.be.at.least(fast.distances[i - 1]!);
      if (count) {
        const row = fast.rows[0]!;
        let dot = 0;
        for (let j = 0; j < dims; j++) dot += matrix[row * dims + j]! * query[j]!;
        expect(fast.distances[0]).to.be.closeTo(1 - dot, 1e-5);
      }
    }
  });
});
