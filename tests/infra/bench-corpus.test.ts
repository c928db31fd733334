import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Cleanup } from '../../infra/bench/cleanup.js';
import { CORPUS_VERSION, startCorpusService } from '../../infra/bench/corpus.js';
import { searchBenchOptions, searchDocument } from '../../infra/bench/search.js';
import { tempDir } from '../support/temp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The benchmark's 100,000-resource read scenario: its settings and its kept corpus (docs/decisions/0181). */
describe('bench: the kept search corpus (BENCH_DATA_DIR)', () => {
  it('reads BENCH_SEARCH_RESOURCES and BENCH_DATA_DIR, and refuses a size out of range', () => {
    expect(searchBenchOptions({})).to.equal(null);
    expect(searchBenchOptions({ BENCH_SEARCH_RESOURCES: '100' })?.dataDir).to.equal(null);
    const o = searchBenchOptions({ BENCH_SEARCH_RESOURCES: '100000', BENCH_DATA_DIR: 'corpus' });
    expect(o?.resources).to.equal(100_000);
    expect(o?.dataDir).to.equal(resolve('corpus'));
    expect(() => searchBenchOptions({ BENCH_SEARCH_RESOURCES: '0' })).to.throw(/BENCH_SEARCH_RESOURCES/);
    expect(() => searchBenchOptions({ BENCH_SEARCH_RESOURCES: '1.5' })).to.throw(/BENCH_SEARCH_RESOURCES/);
  });

  it('gives every document the fields the filtered list filters on, the same on every run', () => {
    expect(searchDocument(7)).to.deep.equal(searchDocument(7));
    expect(searchDocument(7)).to.include({ views: 91, published: false });
    expect(searchDocument(8).published).to.equal(true);
    expect(searchDocument(8).body.split(' ')).to.have.length(60);
  });

  it('refuses a directory that holds something other than a corpus of that size, before starting anything', async () => {
    const cleanup = new Cleanup(ROOT);
    try {
      const foreign = tempDir();
      writeFileSync(join(foreign, 'notes.txt'), 'mine');
      await startCorpusService(cleanup, ROOT, foreign, 1000).then(
        () => expect.fail('a non-empty directory was used'),
        (error: Error) => expect(error.message).to.match(/BENCH_DATA_DIR .* is not empty/),
      );
      const otherSize = tempDir();
      writeFileSync(join(otherSize, 'bench-corpus.json'), JSON.stringify({ version: CORPUS_VERSION, resources: 500, collection: 'c' }));
      await startCorpusService(cleanup, ROOT, otherSize, 1000).then(
        () => expect.fail('a corpus of another size was reused'),
        (error: Error) => expect(error.message).to.match(/no corpus of 1000 resources/),
      );
    } finally {
      await cleanup.run();
    }
  });
});
