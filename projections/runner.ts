import { Subject, type Subscription } from 'rxjs';
import type { EventStore, Position, StoredEvent } from '../commands/ports.js';
import { LeaseLost } from './lease.js';
import { Waiters } from './waiters.js';

/** Where a runner writes: one store, one checkpoint, one batch per unit of work. */
export interface ProjectionTarget {
  readonly name: string;
  checkpoint(): Promise<Position>;
  apply(events: readonly StoredEvent[], position: Position): Promise<void>;
  /** Reactors: the position of the last event their reactions appended. */
  issued?(): Position;
  /** Before a runner applies it from its checkpoint (a start, or a lease taken over): reads again what it keeps in memory of the tables. */
  starting?(): Promise<void>;
}

const BATCH = 1000;
/**
 * Events a runner holds unapplied before it stops reading `$all`; it reads on from its
 * checkpoint once it has applied them (a lagging projection holds a bounded number in memory).
 */
export const MAX_QUEUED = 5 * BATCH;
const RETRY_MS = 1000;
/** Tries of one event before its projection stops on it (docs/decisions/0080). */
const ATTEMPTS = 3;
const ATTEMPT_MS = 250;
/** A stopped projection tries again by itself after this long, doubling up to the maximum (an outage that passes). */
const AUTO_RETRY_MS = 30_000;
const AUTO_RETRY_MAX_MS = 10 * 60_000;

/** The event a projection stopped on. */
export type ProjectionFault = { readonly event_type: string; readonly position: Position; readonly message: string };

/**
 * What a projection reports for operations (a readiness endpoint): its checkpoint, how many
 * events it has received and not applied, and whether it stopped on a faulty event.
 */
export type ProjectionStatus = {
  readonly name: string;
  readonly position: Position;
  readonly lag: number;
  readonly stopped: boolean;
  readonly error: ProjectionFault | null;
};

/**
 * What `Projections` holds for each projection and reactor: a runner applying it here, a watcher
 * following its checkpoint as the store holds it (docs/decisions/0387), or a leased slot that is
 * one or the other as its lease comes and goes (0386).
 */
export interface Consumer {
  readonly name: string;
  readonly checkpoint: Position;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Resolves true once `position` is applied, false after `timeoutMs` or when stopped on a fault. */
  waitFor(position: Position, timeoutMs: number): Promise<boolean>;
  issued(): Position;
  status(): ProjectionStatus;
  retry(): void;
  pause(): void;
  resume(): void;
}

/**
 * Follows `$all` from the target's checkpoint and applies events in batches: whatever
 * arrived while the previous batch was being written forms the next one. Callers can
 * wait until a position is applied (read-your-writes).
 */
export class ProjectionRunner implements Consumer {
  /** Each applied batch, after its unit of work committed. */
  readonly applied = new Subject<readonly StoredEvent[]>();
  private position: Position = '';
  private queue: StoredEvent[] = [];
  private draining = false;
  private subscription: Subscription | null = null;
  private readonly waiters = new Waiters();
  private stopped = false;
  /** Standing by (a lease lost or not yet taken): applies nothing until `start()`. */
  private idle = false;
  private paused: { readonly until: Promise<void>; readonly resume: () => void } | null = null;
  private fault: ProjectionFault | null = null;
  private autoRetry: { timer: NodeJS.Timeout | null; delayMs: number };
  /** Where it last stopped: once past it, the next fault waits the shortest delay again. */
  private lastFault: Position = '';
  /** Events received while stopped on a fault (not queued: `retry()` reads them again). */
  private behind = 0;
  /** Set when the queue reached MAX_QUEUED and the runner stopped reading until it is drained. */
  private detached = false;

  constructor(
    private readonly store: EventStore,
    private readonly target: ProjectionTarget,
    private readonly options: {
      readonly log?: (message: string, error?: unknown) => void;
      /** Runs after a batch committed and before waiters on it are released (in-process caches). */
      readonly afterBatch?: (batch: readonly StoredEvent[]) => Promise<void>;
      /** Pause between tries of one failing event (tests shorten it). */
      readonly attemptMs?: number;
      /** First delay before a stopped projection tries again by itself (tests shorten it). */
      readonly autoRetryMs?: number;
      /**
       * Starts each batch one turn of the event loop after the runners without it, so that what
       * the loop has read in between (a delivery read) goes before it (docs/decisions/0276).
       */
      readonly turnLater?: boolean;
      /** Told when a checkpoint write was refused: a later lease epoch fenced this runner out (docs/decisions/0386). */
      readonly onFenced?: () => void;
    } = {},
  ) {
    this.autoRetry = { timer: null, delayMs: this.firstRetryMs };
  }

  private get firstRetryMs(): number {
    return this.options.autoRetryMs ?? AUTO_RETRY_MS;
  }

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
    this.idle = false;
    await this.target.starting?.();
    this.position = await this.target.checkpoint();
    this.release();
    this.follow();
  }

  private follow(): void {
    if (this.stopped || this.idle) return;
    this.detached = false;
    this.subscription = this.store.subscribeToAll(this.position).subscribe({
      next: (event) => {
        if (this.idle) return;
        if (this.fault) {
          this.behind++;
          return;
        }
        if (this.detached) return;
        this.queue.push(event);
        if (this.queue.length >= MAX_QUEUED) this.detach();
        if (!this.draining) {
          this.draining = true;
          if (this.options.turnLater) setImmediate(() => setImmediate(() => void this.drain()));
          else setImmediate(() => void this.drain());
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
    while (this.queue.length > 0 && !this.stopped && !this.fault && !this.idle) {
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
        if (error instanceof LeaseLost) {
          this.fencedOut(error);
          break;
        }
        this.log(`projection ${this.name}: batch up to ${last.position} failed, applying its events one by one`, error);
        await this.applyOneByOne(batch);
        continue;
      }
      this.queue = this.queue.slice(batch.length);
      await this.committed(batch);
    }
    this.draining = false;
    // Read on from the checkpoint, which is the last event it held.
    if (this.detached && this.queue.length === 0 && !this.stopped && !this.fault) this.follow();
  }

  /** Stops reading `$all` until the queue is applied (drain follows again from the checkpoint). */
  private detach(): void {
    this.detached = true;
    const subscription = this.subscription;
    // Called from inside the subscription's delivery: unsubscribe once it has returned.
    queueMicrotask(() => subscription?.unsubscribe());
  }

  private async committed(batch: readonly StoredEvent[]): Promise<void> {
    const last = batch[batch.length - 1];
    if (!last) return;
    await this.options.afterBatch?.(batch).catch((error: unknown) => this.log(`projection ${this.name}: after-batch hook failed`, error));
    this.position = last.position;
    if (this.lastFault !== '' && this.position >= this.lastFault) {
      this.lastFault = '';
      this.autoRetry.delayMs = this.firstRetryMs;
    }
    this.applied.next(batch);
    this.release();
  }

  /**
   * A failed batch is retried event by event, each a few times: the events before the faulty
   * one are applied (each with its checkpoint), and the projection stops on the faulty one.
   */
  private async applyOneByOne(batch: readonly StoredEvent[]): Promise<void> {
    for (const event of batch) {
      if (this.stopped) return;
      let failure: unknown = null;
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, this.options.attemptMs ?? ATTEMPT_MS));
        try {
          await this.target.apply([event], event.position);
          failure = null;
          break;
        } catch (error) {
          if (error instanceof LeaseLost) return this.fencedOut(error);
          failure = error;
        }
      }
      if (failure !== null) {
        this.stopOn(event, failure);
        return;
      }
      this.queue = this.queue.slice(1);
      await this.committed([event]);
    }
  }

  /** Another process holds the lease now: nothing more is applied here until `start()` again. */
  private fencedOut(error: LeaseLost): void {
    this.log(`projection ${this.name}: ${error.message}; standing by`);
    this.idle = true;
    this.subscription?.unsubscribe();
    this.subscription = null;
    this.queue = [];
    this.options.onFenced?.();
  }

  /**
   * Stops applying without ending: the subscription goes, the queue is dropped, a fault is
   * forgotten; waiters stay. `start()` reads the checkpoint again (a lease taken again, 0386).
   */
  async standBy(): Promise<void> {
    this.idle = true;
    this.subscription?.unsubscribe();
    this.subscription = null;
    this.queue = [];
    this.resume();
    while (this.draining) await new Promise((resolve) => setTimeout(resolve, 5));
    if (this.autoRetry.timer) clearTimeout(this.autoRetry.timer);
    this.autoRetry = { timer: null, delayMs: this.firstRetryMs };
    this.fault = null;
    this.behind = 0;
    // Its waits are answered false: whoever waits goes on with the checkpoint another process writes.
    this.waiters.endAll();
  }

  private stopOn(event: StoredEvent, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.fault = { event_type: event.type, position: event.position, message };
    this.lastFault = event.position;
    this.behind = this.queue.length;
    this.queue = [];
    this.log(`projection ${this.name}: stopped on ${event.type} at ${event.position}: ${message}`, error);
    // Tries again by itself later, in case the cause was an outage; a faulty event stops it again.
    const delay = this.autoRetry.delayMs;
    this.autoRetry = { timer: setTimeout(() => this.retry(true), delay).unref(), delayMs: Math.min(delay * 2, Math.max(delay, AUTO_RETRY_MAX_MS)) };
    this.waiters.endAll();
  }

  /** For a reactor, the position of the last event its reactions appended; else ''. */
  issued(): Position {
    return this.target.issued?.() ?? '';
  }

  /** Where this projection is, for a readiness endpoint. */
  status(): ProjectionStatus {
    return { name: this.name, position: this.position, lag: this.queue.length + this.behind, stopped: this.fault !== null, error: this.fault };
  }

  /**
   * After the cause of a fault is fixed: reads again from the checkpoint, which is just before
   * the faulty event, so nothing is lost and nothing applied twice. Does nothing when running.
   */
  retry(automatic = false): void {
    if (this.autoRetry.timer) clearTimeout(this.autoRetry.timer);
    this.autoRetry = { timer: null, delayMs: automatic ? this.autoRetry.delayMs : this.firstRetryMs };
    if (!this.fault || this.stopped) return;
    this.subscription?.unsubscribe();
    this.fault = null;
    this.behind = 0;
    this.queue = [];
    this.follow();
  }

  private release(): void {
    this.waiters.release(this.position);
  }

  /** Resolves true once `position` is applied, false after `timeoutMs` or when the projection stops on a fault. */
  waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    if (position <= this.position) return Promise.resolve(true);
    if (this.fault) return Promise.resolve(false);
    return this.waiters.add(position, timeoutMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.autoRetry.timer) clearTimeout(this.autoRetry.timer);
    this.resume();
    this.subscription?.unsubscribe();
    while (this.draining) await new Promise((resolve) => setTimeout(resolve, 5));
    this.waiters.endAll();
    this.applied.complete();
  }
}

/**
 * All runners together: a write waits until every projection has its event. Reactors (projections
 * that issue commands, docs/decisions/0083) run beside them; only a write that starts a cascade
 * waits for them.
 */
export class Projections {
  constructor(
    readonly runners: readonly Consumer[],
    readonly reactors: readonly Consumer[] = [],
  ) {}

  private get all(): readonly Consumer[] {
    return [...this.runners, ...this.reactors];
  }

  runner(name: string): Consumer | undefined {
    return this.all.find((r) => r.name === name);
  }

  async start(): Promise<void> {
    await Promise.all(this.all.map((r) => r.start()));
  }

  async waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    const reached = await Promise.all(this.runners.map((r) => r.waitFor(position, timeoutMs)));
    return reached.every(Boolean);
  }

  /**
   * For a write that starts a cascade: waits until every reactor has handled `position`, then
   * until every projection has what the reactors appended. False when that takes longer than
   * `timeoutMs` or a projection or reactor is stopped on a fault.
   */
  async waitForCascade(position: Position, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    const handled = await Promise.all(this.reactors.map((r) => r.waitFor(position, timeoutMs)));
    if (!handled.every(Boolean)) return false;
    const issued = this.reactors.map((r) => r.issued()).reduce((a, b) => (b > a ? b : a), position);
    return this.waitFor(issued, Math.max(0, deadline - Date.now()));
  }

  /** Each projection's checkpoint, lag and fault (a readiness endpoint shows them). */
  status(): ProjectionStatus[] {
    return this.all.map((r) => r.status());
  }

  /** Restarts every projection stopped on a fault (after the fix) from its checkpoint. */
  retry(): void {
    for (const runner of this.all) runner.retry();
  }

  async stop(): Promise<void> {
    await Promise.all(this.all.map((r) => r.stop()));
  }
}
