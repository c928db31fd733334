import { DomainError } from './errors.js';
import { UPGRADE_URL, type PlanCode } from './plan.js';

/**
 * Billing axes on writes (specification, Billable limits on writes). The allowance window and
 * the billing cycle are calendar months in UTC; allowances, prices and the cap are configuration.
 */
export type BillingSettings = {
  /** Free plan: writes per window. */
  readonly freeWrites: number;
  /** Free plan: bytes of stored vectors. */
  readonly freeVectorStorageBytes: number;
  /** Paid plans: price of one write in USD. */
  readonly writePriceUsd: number;
  /** Paid plans: most USD spent per cycle; null for no cap. */
  readonly spendCapUsd: number | null;
};

export type BillingUsage = { readonly writes: number; readonly vector_storage: number };

export const RAISE_CAP_URL = '/organizations/plan/';

/** `YYYY-MM` of an ISO timestamp: the usage window (and billing cycle) it falls in. */
export const windowOf = (iso: string): string => iso.slice(0, 7);

/** The start of the month after the one `iso` falls in. */
export function windowResetsAt(iso: string): string {
  const at = new Date(iso);
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)).toISOString();
}

/** 402 plan_exhausted or spend_cap_reached when the organization may not write now, else null. */
export function billingRefusal(plan: PlanCode, usage: BillingUsage, settings: BillingSettings, now: string): DomainError | null {
  // The reset time only for a refusal: every write asks, few are refused (docs/decisions/0296).
  if (plan === 'free') {
    const axis = usage.writes >= settings.freeWrites ? 'writes' : usage.vector_storage >= settings.freeVectorStorageBytes ? 'vector_storage' : null;
    if (axis === null) return null;
    const resets = windowResetsAt(now);
    return new DomainError('plan_exhausted', `The free plan's ${axis} allowance is used up until ${resets}; upgrade the plan to go on.`, {
      axis,
      window_resets_at: resets,
      upgrade_url: UPGRADE_URL,
    });
  }
  if (settings.spendCapUsd === null) return null;
  const spent = usage.writes * settings.writePriceUsd;
  if (spent < settings.spendCapUsd) return null;
  const resets = windowResetsAt(now);
  return new DomainError('spend_cap_reached', `The spend cap of ${settings.spendCapUsd} USD is reached until ${resets}; raise the cap to go on.`, {
    cap_usd: settings.spendCapUsd,
    cycle_resets_at: resets,
    raise_cap_url: RAISE_CAP_URL,
  });
}

/**
 * 402 spend_cap_reached when an API key's own cap is reached (docs/decisions/0163): its writes of
 * the cycle priced as the organization's are; `raise_cap_url` is the key's own address.
 */
export function keySpendRefusal(capUsd: number, writes: number, settings: BillingSettings, now: string, keyUrl: string): DomainError | null {
  if (writes * settings.writePriceUsd < capUsd) return null;
  const resets = windowResetsAt(now);
  return new DomainError('spend_cap_reached', `The API key's spend cap of ${capUsd} USD is reached until ${resets}; raise the key's spend_cap_usd to go on.`, {
    cap_usd: capUsd,
    cycle_resets_at: resets,
    raise_cap_url: keyUrl,
  });
}
