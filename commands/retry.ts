/**
 * How a step is tried again, as data given where the step is declared (Emmett's
 * `CommandHandler({ retry: { onVersionConflict } })`): at most `retries` more times, and only
 * after a failure `on` accepts. No wait between tries: each try reads the state again, and what
 * it lost to is an append that has already happened (docs/decisions/0374).
 */
export type RetryPolicy = {
  readonly retries: number;
  readonly on: (error: unknown) => boolean | Promise<boolean>;
};

/**
 * Runs `attempt` (numbered from 1) under `policy`; the last failure is thrown as it was. Not
 * p-retry: its call cost 10 µs of CPU where this one costs 0.2 µs, on a path every command takes
 * (docs/decisions/0374).
 */
export async function retrying<T>(policy: RetryPolicy, attempt: (attemptNumber: number) => Promise<T>): Promise<T> {
  for (let attemptNumber = 1; ; attemptNumber++) {
    try {
      return await attempt(attemptNumber);
    } catch (error) {
      if (attemptNumber > policy.retries || !(await policy.on(error))) throw error;
    }
  }
}
