import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { Piscina } from 'piscina';
import { QUERY_TIMEOUT_MS, queryTimedOut } from '../query-time-budget.js';
import { BUDGET_EXCEEDED } from './query-budget.js';
import type { QueryAnswer, QueryTask } from './query-task.js';

const pastBudget = (error: unknown): boolean => error instanceof Error && error.message.includes(BUDGET_EXCEEDED);

/** A task as the index asks it: the pool adds the file and the deadline. */
export type QueryRequest = QueryTask extends infer T ? (T extends unknown ? Omit<T, 'deadline' | 'file'> : never) : never;

/**
 * The threads that run the delivery index's lists and searches (docs/decisions/0339): better-sqlite3
 * is synchronous, so a query on the main thread holds every other request until it ends. Each
 * task has a time budget: an AbortSignal answers the request 503 when it ends, whether the task
 * waits for a thread or runs, and the running statement stops at the same deadline by itself
 * (`budget_left()`, query-task.ts), so its thread is free again at once. Piscina's own abort is
 * not used: it ends a running task's thread, which keeps running its SQLite statement to the
 * end all the same, and a new thread must start in its place.
 */
export class QueryPool {
  private pool: Piscina<QueryTask, QueryAnswer> | null = null;
  /** Every thread's first task, run without a budget: a thread's start (its modules loaded, the file opened) is not a query's time. */
  private ready: Promise<unknown> | null = null;
  /** As many threads as cores, at least two. */
  readonly threads = Math.max(2, availableParallelism());
  /** Tasks asked and not ended (waiting for a thread or running), a task past its budget until its statement stops. */
  private running = 0;

  constructor(
    private readonly file: string,
    readonly timeoutMs = QUERY_TIMEOUT_MS,
  ) {}

  /** The threads, started on the first query (an index that is never queried, a rebuild's, starts none) and kept. */
  private started(): Piscina<QueryTask, QueryAnswer> {
    if (this.pool) return this.pool;
    const threads = this.threads;
    // The thread's module beside this one: .ts under tsx (tests), .js once built. Not at a lower
    // priority: on a machine shared with other work, niced threads starved (docs/decisions/0339).
    const filename = new URL(`./query-thread${extname(new URL(import.meta.url).pathname)}`, import.meta.url).href;
    const pool = new Piscina<QueryTask, QueryAnswer>({ filename, minThreads: threads, maxThreads: threads, idleTimeout: Infinity });
    this.ready = Promise.all(Array.from({ length: threads }, () => pool.run({ file: this.file, deadline: Infinity, kind: 'rows', sql: 'SELECT 1', params: [] })));
    this.pool = pool;
    return pool;
  }

  /** The threads no task holds or waits for now: how many parts a full-text search is cut into (at least one; docs/decisions/0376). */
  get idle(): number {
    return Math.max(1, this.threads - this.running);
  }

  async run(request: QueryRequest): Promise<QueryAnswer> {
    this.running += 1;
    let ran: Promise<QueryAnswer>;
    try {
      const pool = this.started();
      await this.ready;
      ran = pool.run({ ...request, file: this.file, deadline: Date.now() + this.timeoutMs } as QueryTask);
    } catch (error) {
      this.running -= 1;
      throw error;
    }
    // The thread is held until its task ends, past the budget too (the statement stops by itself soon after).
    const answer = ran
      .finally(() => {
        this.running -= 1;
      })
      .catch((error: unknown) => {
        throw pastBudget(error) ? queryTimedOut(this.timeoutMs) : error;
      });
    const signal = AbortSignal.timeout(this.timeoutMs);
    const timedOut = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(queryTimedOut(this.timeoutMs)), { once: true }));
    // Whichever loses the race is dropped: an answer after the budget, or a refusal already given.
    answer.catch(() => undefined);
    timedOut.catch(() => undefined);
    return Promise.race([answer, timedOut]);
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
  }
}
