import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { signManagementToken, VerifiedTokens } from '../../infra/auth/management-auth.js';

const SECRET = 'a-secret-of-the-test-only-0123456789';

/** VerifiedTokens over jsonwebtoken's verify, counting the verifications. */
function counted(): { tokens: VerifiedTokens; calls: () => number } {
  let calls = 0;
  const tokens = new VerifiedTokens((token) => {
    calls += 1;
    try {
      const claims = jwt.verify(token, SECRET, { algorithms: ['HS256'], issuer: 'cms' });
      return typeof claims === 'string' ? null : claims;
    } catch {
      return null;
    }
  });
  return { tokens, calls: () => calls };
}

describe('VerifiedTokens: management JWTs verified once', () => {
  it('verifies a token the first time only and gives the same claims after', () => {
    const { tokens, calls } = counted();
    const token = signManagementToken(SECRET, { sub: 'u1', org: 'o1' });
    const first = tokens.claimsOf(token);
    expect(first).to.include({ sub: 'u1', org: 'o1' });
    expect(tokens.claimsOf(token)).to.deep.equal(first);
    expect(calls()).to.equal(1);
  });

  it('refuses a token signed with another secret or changed, every time, even beside a known one', () => {
    const { tokens, calls } = counted();
    const good = signManagementToken(SECRET, { sub: 'u1', org: 'o1' });
    expect(tokens.claimsOf(good)).to.not.equal(null);
    const other = signManagementToken('another-secret-entirely-0123456789', { sub: 'u1', org: 'o1' });
    const [head, , signature] = good.split('.');
    const changed = `${head}.${Buffer.from(JSON.stringify({ org: 'o2', sub: 'u1', iss: 'cms' })).toString('base64url')}.${signature}`;
    for (let i = 0; i < 2; i++) {
      expect(tokens.claimsOf(other)).to.equal(null);
      expect(tokens.claimsOf(changed)).to.equal(null);
    }
    expect(calls()).to.equal(5);
  });

  it('verifies a token with an expiry on every use, so an expired one is refused', () => {
    const { tokens, calls } = counted();
    const expiring = jwt.sign({ org: 'o1' }, SECRET, { algorithm: 'HS256', subject: 'u1', issuer: 'cms', expiresIn: 60 });
    expect(tokens.claimsOf(expiring)).to.include({ sub: 'u1' });
    expect(tokens.claimsOf(expiring)).to.include({ sub: 'u1' });
    expect(calls()).to.equal(2);
    const expired = jwt.sign({ org: 'o1', exp: Math.floor(Date.now() / 1000) - 10 }, SECRET, { algorithm: 'HS256', subject: 'u1', issuer: 'cms' });
    expect(tokens.claimsOf(expired)).to.equal(null);
  });

  it('keeps working past its bound', () => {
    const { tokens } = counted();
    for (let i = 0; i < 1100; i++) expect(tokens.claimsOf(signManagementToken(SECRET, { sub: `u${i}`, org: 'o' }))).to.include({ sub: `u${i}` });
  });
});
