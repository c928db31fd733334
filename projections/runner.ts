import { Subject, type Subscription } from 'rxjs';
import type { EventStore, Position, StoredEvent } from '../commands/ports.js';

/** Where a runner writes: one store, one checkpoint, one batch per unit of work. */
export interface ProjectionTarget {
  readonly name: string;
  checkpoint(): Promise<Position>;
  apply(events: readonly StoredEvent[], position: Position): Promise<void>;
}

const BATCH = 1000;
const RETRY_MS = 1000;

type Waiter = { readonly position: Position; readonly resolve: (reached: boolean) => void; readonly timer: NodeJS.Timeout };

/**
 * Follows `$all` from the target's checkpoint and applies events in batches: whatever
 * arrived while the previous batch was being written forms the next one. Callers can
 * wait until a position is applied (read-your-writes).
 */
export class ProjectionRunner {
  /** Each applied batch, after its unit of work committed. */
  readonly applied = new Subject<readonly StoredEvent[]>();
  private position: Position = '';
  private queue: StoredEvent[] = [];
  private draining = false;
  private subscription: Subscription | null = null;
  private waiters: Waiter[] = [];
  private stopped = false;
  private paused: { readonly until: Promise<void>; readonly resume: () => void } | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly target: ProjectionTarget,
    private readonly options: {
      readonly log?: (message: string, error?: unknown) => void;
      /** Runs after a batch committed and before waiters on it are released (in-process caches). */
      readonly afterBatch?: (batch: readonly StoredEvent[]) => Promise<void>;
    } = {},
  ) {}

  private log(message: string, error?: unknown): void {
    this.options.log?.(message, error);
  }

  get name(): string {
    return this.target.name;
  }

  get checkpoint(): Position {
    return this.position;
  }

  async start(): Promise<void> {
    this.position = await this.target.checkpoint();
    this.follow();
  }

  private follow(): void {
    if (this.stopped) return;
    this.subscription = this.store.subscribeToAll(this.position).subscribe({
      next: (event) => {
        this.queue.push(event);
        if (!this.draining) {
          this.draining = true;
          setImmediate(() => void this.drain());
        }
      },
      error: (error: unknown) => {
        this.log(`projection ${this.name}: subscription failed, resubscribing`, error);
        setTimeout(() => this.resubscribe(), RETRY_MS).unref();
      },
    });
  }

  private resubscribe(): void {
    this.subscription?.unsubscribe();
    this.queue = [];
    this.follow();
  }

  /** Holds the runner before its next batch until `resume()` (operations, and tests of the read side lagging). */
  pause(): void {
    if (this.paused) return;
    let resume = () => {};
    const until = new Promise<void>((resolve) => (resume = resolve));
    this.paused = { until, resume };
  }

  resume(): void {
    this.paused?.resume();
    this.paused = null;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && !this.stopped) {
      if (this.paused) {
        await this.paused.until;
        continue;
      }
      const batch = this.queue.slice(0, BATCH);
      const last = batch[batch.length - 1];
      if (!last) break;
      try {
        await this.target.apply(batch, last.position);
      } catch (error) {
        this.log(`projection ${this.name}: batch at ${last.position} failed, retrying`, error);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        continue;
      }
      this.queue = this.queue.slice(batch.length);
      await this.options.afterBatch?.(batch).catch((error: unknown) => this.log(`projection ${this.name}: after-batch hook failed`, error));
      this.position = last.position;
      this.applied.next(batch);
      this.release();
    }
    this.draining = false;
  }

  private release(): void {
    const reached = this.waiters.filter((w) => w.position <= this.position);
    if (reached.length === 0) return;
    this.waiters = this.waiters.filter((w) => w.position > this.position);
    for (const waiter of reached) {
      clearTimeout(waiter.timer);
      waiter.resolve(true);
    }
  }

  /** Resolves true once `position` is applied, false after `timeoutMs`. */
  waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    if (position <= this.position) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.timer !== timer);
        resolve(false);
      }, timeoutMs);
      this.waiters.push({ position, resolve, timer });
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.resume();
    this.subscription?.unsubscribe();
    while (this.draining) await new Promise((resolve) => setTimeout(resolve, 5));
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(false);
    }
    this.waiters = [];
    this.applied.complete();
  }
}

/** All runners together: a write waits until every projection has its event. */
export class Projections {
  constructor(readonly runners: readonly ProjectionRunner[]) {}

  runner(name: string): ProjectionRunner | undefined {
    return this.runners.find((r) => r.name === name);
  }

  async start(): Promise<void> {
    await Promise.all(this.runners.map((r) => r.start()));
  }

  async waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    const reached = await Promise.all(this.runners.map((r) => r.waitFor(position, timeoutMs)));
    return reached.every(Boolean);
  }

  async stop(): Promise<void> {
    await Promise.all(this.runners.map((r) => r.stop()));
  }
}
