import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { chainHash, GENESIS } from '../../infra/audit/hash-chain.js';

describe('chainHash: the chained hash of an event (docs/decisions/0071, 0290)', () => {
  const event = { id: '0190f3b2-1c2d-7abc-8def-0123456789ab', stream: 'resource-abc', revision: 3, type: 'ResourceCreated', data: '{"title":"é \\"q\\""}', metadata: '{"actor":"u1"}' };

  it('is SHA-256 over the JSON array of the previous hash and the stored fields, as hashes already stored were made', () => {
    const fields = [GENESIS, event.id, event.stream, event.revision, event.type, event.data, event.metadata];
    expect(chainHash(GENESIS, event)).to.equal(createHash('sha256').update(JSON.stringify(fields)).digest('hex'));
    expect(chainHash(GENESIS, event)).to.match(/^[0-9a-f]{64}$/);
  });

  it('changes with the previous hash and with any field', () => {
    const base = chainHash(GENESIS, event);
    expect(chainHash('1'.repeat(64), event)).to.not.equal(base);
    expect(chainHash(GENESIS, { ...event, revision: 4 })).to.not.equal(base);
    expect(chainHash(GENESIS, { ...event, data: '{"title":"e"}' })).to.not.equal(base);
  });
});
