import { expect } from 'chai';
import { KEY_PATTERN, newKey } from '../../commands/keys.js';

describe('newKey: short opaque keys from a pool of random bytes', () => {
  it('makes 12 characters of a-z0-9, none repeated over many refills of the pool', () => {
    const keys = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const key = newKey();
      expect(key).to.match(KEY_PATTERN);
      keys.add(key);
    }
    expect(keys.size).to.equal(5000);
  });

  it('makes keys of other lengths, across the end of the pool, and refuses one longer than the pool', () => {
    for (const length of [1, 7, 24, 4000, 4096]) expect(newKey(length)).to.match(new RegExp(`^[a-z0-9]{${length}}$`));
    expect(() => newKey(4097)).to.throw(RangeError);
  });

  it('uses every character of the alphabet', () => {
    const seen = new Set(Array.from({ length: 400 }, () => newKey()).join(''));
    expect(seen.size).to.equal(36);
  });
});
