import type { Decider } from '../../domain/decider.js';

export type Inc = { readonly type: 'Inc'; readonly data: { readonly seen?: number } };

/** A counter whose events record the count each decision saw: two decisions on one state would repeat a number. */
export const counter: Decider<number, Inc, Inc> = {
  initialState: () => 0,
  evolve: (state) => state + 1,
  decide: (_command, state) => [{ type: 'Inc', data: { seen: state } }],
};

/** The metadata of a system command, for tests of the command bus. */
export const metadata = { actor_type: 'system', actor: null, ip_address: null, referer: null, timestamp: '2026-01-01T00:00:00Z' } as const;
