import { expect } from 'chai';
import { KEY_PATTERN, newKey, newOrderedKey } from '../../commands/keys.js';

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

describe('newOrderedKey: keys in the order they are made (docs/decisions/0306)', () => {
  const SORTED = '0123456789abcdefghijklmnopqrstuvwxyz';
  const timeOf = (key: string): number => [...key.slice(0, 8)].reduce((n, c) => n * 36 + SORTED.indexOf(c), 0);

  it('makes 12 characters of a-z0-9 starting with the time in ms, each sorting at or after the one before', () => {
    const before = Date.now();
    const keys = Array.from({ length: 20_000 }, () => newOrderedKey());
    const after = Date.now();
    for (const key of keys) expect(key).to.match(KEY_PATTERN);
    expect(timeOf(keys[0]!)).to.be.within(before, after);
    expect(timeOf(keys[keys.length - 1]!)).to.be.within(before, after);
    for (let i = 1; i < keys.length; i++) expect(keys[i]!.slice(0, 8) >= keys[i - 1]!.slice(0, 8), `${keys[i - 1]} then ${keys[i]}`).to.equal(true);
    expect(new Set(keys).size).to.equal(keys.length);
  });

  it('never repeats a key within a process, even with many keys in one millisecond and a clock that goes back', () => {
    const now = Date.now;
    let clock = now.call(Date) + 1_000;
    Date.now = () => clock;
    try {
      // 100,000 random ends of 4 characters in one ms: about 3,000 would repeat by chance.
      const keys = new Set(Array.from({ length: 100_000 }, () => newOrderedKey()));
      expect(keys.size).to.equal(100_000);
      const first = [...keys][0]!;
      clock -= 500;
      const later = newOrderedKey();
      expect(later.slice(0, 8)).to.equal(first.slice(0, 8));
      expect(keys.has(later)).to.equal(false);
    } finally {
      Date.now = now;
    }
  });

  it('draws the last four characters at random', () => {
    const seen = new Set(Array.from({ length: 400 }, () => newOrderedKey().slice(8)).join(''));
    expect(seen.size).to.equal(36);
  });
});
