import pRetry from 'p-retry';

/**
 * How a step is tried again, as data given where the step is declared (Emmett's
 * `CommandHandler({ retry: { onVersionConflict } })`): at most `retries` more times, and only
 * after a failure `on` accepts. No wait between tries: each try reads the state again, and what
 * it lost to was an append that has already happened (docs/decisions/0374).
 */
export type RetryPolicy = {
  readonly retries: number;
  readonly on: (error: unknown) => boolean | Promise<boolean>;
};

/** Runs `attempt` (numbered from 1) under `policy`; the last failure is thrown as it was. */
export const retrying = <T>(policy: RetryPolicy, attempt: (attemptNumber: number) => Promise<T>): Promise<T> =>
  pRetry(attempt, { retries: policy.retries, minTimeout: 0, shouldRetry: ({ error }) => policy.on(error) });
