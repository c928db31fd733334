import { expect } from 'chai';
import { rememberServed, ServedCache } from '../../read-api/delivery/served-cache.js';

const scope = { env: 'env', prefix: 'site', folder: 'folder' };
const answer = (text: string) => ({ body: Buffer.from(text), etag: `"${text}"`, surrogateKeys: 'env folder doc' });

describe('served bytes cache', () => {
  it('remembers an admitted answer under its key, and nothing for a request it did not admit', () => {
    const cache = new ServedCache();
    const admitted = {};
    cache.admit(admitted, 'host /env/site/a/1/', scope, ['env']);
    rememberServed(admitted, answer('one'), ['env', 'folder', 'doc']);
    rememberServed({}, answer('other'), ['env']);
    expect(cache.lookup('host /env/site/a/1/')?.body.toString()).to.equal('one');
    expect(cache.size).to.equal(1);
  });

  it('drops an answer when one of its surrogate keys or dependencies is evicted, not when an ignored one is', () => {
    const cache = new ServedCache();
    const request = {};
    cache.admit(request, 'k', scope, ['env'], new Set(['folder']));
    rememberServed(request, answer('one'), ['env', 'folder', 'doc']);
    cache.evict('folder');
    expect(cache.lookup('k')).to.not.equal(undefined);
    cache.evict('doc');
    expect(cache.lookup('k')).to.equal(undefined);
  });

  it('throws away an answer built before an eviction that happened while it was built', () => {
    const cache = new ServedCache();
    const request = {};
    cache.admit(request, 'k', scope, ['env']);
    cache.evict('unrelated');
    rememberServed(request, answer('stale'), ['env']);
    expect(cache.lookup('k')).to.equal(undefined);
  });

  it('keeps within its entry and byte limits, oldest out first', () => {
    const cache = new ServedCache({ maxEntries: 2, maxBytes: 10 });
    for (const [key, text] of [['a', 'aaa'], ['b', 'bbb'], ['c', 'ccc'], ['d', 'dddddddd']] as const) {
      const request = {};
      cache.admit(request, key, scope, ['env']);
      rememberServed(request, answer(text), []);
    }
    expect(['a', 'b', 'c', 'd'].filter((k) => cache.lookup(k))).to.deep.equal(['d']);
    cache.evict('env');
    expect(cache.size).to.equal(0);
  });
  it('tracks answers sharing a dependency and answers alone on one, through refills, removals and evictions', () => {
    const cache = new ServedCache();
    const fill = (key: string, keys: string[]) => {
      const request = {};
      cache.admit(request, key, scope, ['env']);
      rememberServed(request, answer(key), keys);
    };
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
