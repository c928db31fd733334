import { errors } from '@opensearch-project/opensearch';
import { QUERY_TIMEOUT_MS, queryTimedOut } from '../query-time-budget.js';

/**
 * The time budget of a delivery list or search on OpenSearch (QUERY_TIMEOUT_MS, docs/decisions/0379):
 * the client's `requestTimeout` for the request, no retry past it, and a request that ran past
 * it answered 503 service_unavailable with Retry-After, as on SQLite (docs/decisions/0339).
 */
export class QueryBudget {
  /** The client's options of a list or search request. */
  readonly options: { readonly requestTimeout: number; readonly maxRetries: 0 };

  constructor(readonly timeoutMs = QUERY_TIMEOUT_MS) {
    this.options = { requestTimeout: timeoutMs, maxRetries: 0 };
  }

  async within<T>(request: Promise<T>): Promise<T> {
    try {
      return await request;
    } catch (error) {
      throw error instanceof errors.TimeoutError ? queryTimedOut(this.timeoutMs) : error;
    }
  }
}
