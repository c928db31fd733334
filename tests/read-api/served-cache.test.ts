import { expect } from 'chai';
import { ServedCache } from '../../read-api/delivery/served-cache.js';

const answer = (text: string) => ({ body: Buffer.from(text), etag: `"${text}"`, surrogateKeys: 'env folder doc' });

describe('served bytes cache', () => {
  it('remembers an admitted answer under its key', () => {
    const cache = new ServedCache();
    cache.fill(cache.admit('host /env/site/a/1/', ['env']), answer('one'), ['env', 'folder', 'doc']);
    expect(cache.lookup('host /env/site/a/1/')?.body.toString()).to.equal('one');
    expect(cache.size).to.equal(1);
  });

  it('drops an answer when one of its surrogate keys or dependencies is evicted, not when an ignored one is', () => {
    const cache = new ServedCache();
    cache.fill(cache.admit('k', ['env'], new Set(['folder'])), answer('one'), ['env', 'folder', 'doc']);
    cache.evict('folder');
    expect(cache.lookup('k')).to.not.equal(undefined);
    cache.evict('doc');
    expect(cache.lookup('k')).to.equal(undefined);
  });

  it('throws away an answer built before an eviction that happened while it was built', () => {
    const cache = new ServedCache();
    const admission = cache.admit('k', ['env']);
    cache.evict('unrelated');
    cache.fill(admission, answer('stale'), ['env']);
    expect(cache.lookup('k')).to.equal(undefined);
  });

  it('keeps within its entry and byte limits, oldest out first', () => {
    const cache = new ServedCache({ maxEntries: 2, maxBytes: 10 });
    for (const [key, text] of [['a', 'aaa'], ['b', 'bbb'], ['c', 'ccc'], ['d', 'dddddddd']] as const) {
      cache.fill(cache.admit(key, ['env']), answer(text), []);
    }
    expect(['a', 'b', 'c', 'd'].filter((k) => cache.lookup(k))).to.deep.equal(['d']);
    cache.evict('env');
    expect(cache.size).to.equal(0);
  });
  it('tracks answers sharing a dependency and answers alone on one, through refills, removals and evictions', () => {
    const cache = new ServedCache();
    const fill = (key: string, keys: string[]) => cache.fill(cache.admit(key, ['env']), answer(key), keys);
    fill('a', ['env', 'shared', 'only-a']);
    fill('b', ['env', 'shared', 'only-b']);
    fill('c', ['env', 'shared']);
    // Refilled under the same address: no longer built from only-a.
    fill('a', ['env', 'shared', 'env', 'other-a']);
    cache.evict('only-a');
    expect(['a', 'b', 'c'].filter((k) => cache.lookup(k))).to.deep.equal(['a', 'b', 'c']);
    cache.evict('only-b');
    expect(['a', 'b', 'c'].filter((k) => cache.lookup(k))).to.deep.equal(['a', 'c']);
    cache.evict('other-a');
    expect(['a', 'b', 'c'].filter((k) => cache.lookup(k))).to.deep.equal(['c']);
    fill('d', ['env', 'shared']);
    cache.evict('shared');
    expect(cache.size).to.equal(0);
    fill('e', ['env']);
    cache.evict('env');
    expect(cache.size).to.equal(0);
  });
});
