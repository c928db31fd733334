import { expect } from 'chai';
import { billingRefusal } from '../../domain/billing.js';
import { DomainError } from '../../domain/errors.js';

const settings = { freeWrites: 10, freeVectorStorageBytes: 100, writePriceUsd: 0.5, spendCapUsd: 2 };

describe('billing refusal of a write (docs/decisions/0093, 0296)', () => {
  it('refuses nothing under the allowance or the cap', () => {
    expect(billingRefusal('free', { writes: 9, vector_storage: 99 }, settings, '2026-12-31T23:59:59.999Z')).to.equal(null);
    expect(billingRefusal('pro', { writes: 3, vector_storage: 1e9 }, settings, '2026-12-31T23:59:59.999Z')).to.equal(null);
    expect(billingRefusal('pro', { writes: 1e9, vector_storage: 0 }, { ...settings, spendCapUsd: null }, '2026-12-31T23:59:59.999Z')).to.equal(null);
  });

  it('names the start of the next calendar month (UTC) in a refusal, across the year too', () => {
    const free = billingRefusal('free', { writes: 10, vector_storage: 0 }, settings, '2026-12-31T23:59:59.999Z');
    expect(free).to.be.instanceOf(DomainError);
    expect(free!.code).to.equal('plan_exhausted');
    expect(free!.detail).to.deep.include({ axis: 'writes', window_resets_at: '2027-01-01T00:00:00.000Z' });
    const vectors = billingRefusal('free', { writes: 0, vector_storage: 100 }, settings, '2026-02-10T08:00:00.000Z');
    expect(vectors!.detail).to.deep.include({ axis: 'vector_storage', window_resets_at: '2026-03-01T00:00:00.000Z' });
    const cap = billingRefusal('starter', { writes: 4, vector_storage: 0 }, settings, '2026-11-26T04:00:00.000Z');
    expect(cap!.code).to.equal('spend_cap_reached');
    expect(cap!.detail).to.deep.include({ cap_usd: 2, cycle_resets_at: '2026-12-01T00:00:00.000Z' });
  });
});
