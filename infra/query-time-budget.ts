import { DomainError } from '../domain/errors.js';

/** The default time budget of a delivery list or search (QUERY_TIMEOUT_MS, docs/decisions/0339). */
export const QUERY_TIMEOUT_MS = 1000;

/** Seconds a client is asked to wait after a query ran past its budget. */
export const RETRY_AFTER_SECONDS = 1;

/** What a list or search that ran past its budget answers, on every delivery index: 503 with Retry-After (infra/http/errors.ts sets the header). */
export const queryTimedOut = (timeoutMs: number): DomainError =>
  new DomainError('service_unavailable', `The query ran past its time budget of ${timeoutMs} ms; retry later or narrow it.`, { timeout_ms: timeoutMs, retry_after: RETRY_AFTER_SECONDS });
