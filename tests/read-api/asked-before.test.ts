import { expect } from 'chai';
import { AskedBefore } from '../../read-api/delivery/asked-before.js';

describe('addresses asked before', () => {
  it('tells a second ask from a first, and keeps at most its bound, oldest out first', () => {
    const asked = new AskedBefore(2);
    expect(asked.ask('a')).to.equal(false);
    expect(asked.ask('a')).to.equal(true);
    expect(asked.ask('b')).to.equal(false);
    expect(asked.ask('c')).to.equal(false);
    expect(asked.size).to.equal(2);
    expect(asked.ask('a')).to.equal(false);
    expect(asked.ask('c')).to.equal(true);
  });
});
