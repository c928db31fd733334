import type { Position } from '../commands/ports.js';
import type { CheckpointWatcher } from './checkpoint-watcher.js';
import { LeaseLost, type Leases } from './lease.js';
import type { Consumer, ProjectionRunner, ProjectionStatus } from './runner.js';

/** A lease lives this long unless renewed; a dead holder's lease is taken over within TTL_MS + EVERY_MS (docs/decisions/0386). */
export const LEASE_TTL_MS = 3000;
/** How often a holder renews and the others try to take it. */
export const LEASE_EVERY_MS = 1000;

export type LeaseSettings = {
  readonly leases: Leases;
  readonly holder: string;
  /** Raises the epoch of the consumer's checkpoint in the store that holds it; absent where the checkpoint fences itself (the audit stream's expected revision). */
  readonly fence?: (epoch: number) => Promise<void>;
  /** While held: what runs beside the runner (the webhook sender, the scheduler's timer). */
  readonly onHeld?: () => void;
  readonly onLost?: () => Promise<void>;
  readonly ttlMs?: number;
  readonly everyMs?: number;
  readonly log?: (message: string, error?: unknown) => void;
};

/**
 * One projection or reactor in a process that may run it (ROLE all or worker): while this process
 * holds its lease the runner applies it, fenced with the lease's epoch; otherwise the watcher
 * follows the checkpoint another process writes. Every EVERY_MS the holder renews, the others try
 * to take the lease; a lost lease (not renewed in time, or a checkpoint write refused) stands the
 * runner by and starts the watcher.
 */
export class LeasedProjection implements Consumer {
  private epoch: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private turn: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    readonly runner: ProjectionRunner,
    private readonly watcher: CheckpointWatcher,
    private readonly lease: LeaseSettings,
  ) {}

  get name(): string {
    return this.runner.name;
  }

  /** Whether this process applies it now. */
  get held(): boolean {
    return this.epoch !== null;
  }

  get checkpoint(): Position {
    return this.held ? this.runner.checkpoint : this.watcher.checkpoint;
  }

  async start(): Promise<void> {
    await this.step();
    if (!this.held) await this.watcher.start();
    this.timer = setInterval(() => void this.step(), this.lease.everyMs ?? LEASE_EVERY_MS).unref();
  }

  /** Fenced out by a later epoch: let the lease go here at once (the next step confirms it). */
  fenced(): void {
    this.turn = this.turn.then(() => this.lose());
  }

  /** One renewal or one try, never two at once. */
  private step(): Promise<void> {
    this.turn = this.turn.then(() => this.once()).catch((error: unknown) => this.lease.log?.(`lease of ${this.name}: renewal failed`, error));
    return this.turn;
  }

  private async once(): Promise<void> {
    if (this.stopped) return;
    const { leases, holder } = this.lease;
    const ttl = this.lease.ttlMs ?? LEASE_TTL_MS;
    if (this.epoch !== null) {
      if (!(await leases.renew(this.name, holder, this.epoch, ttl))) await this.lose();
      return;
    }
    let epoch = await leases.acquire(this.name, holder, ttl);
    if (epoch === null) return;
    try {
      await this.lease.fence?.(epoch);
    } catch (error) {
      if (!(error instanceof LeaseLost)) throw error;
      if (error.stored === null) return;
      // The checkpoint carries a higher epoch than the leases: their store was removed, the checkpoint's kept. Pass it.
      epoch = await leases.raise(this.name, holder, epoch, error.stored);
      if (epoch === null) return;
      await this.lease.fence?.(epoch);
    }
    // Held from here: a wait the watcher answers false on standing by goes on with the runner.
    this.epoch = epoch;
    await this.watcher.standBy();
    await this.runner.start();
    this.lease.onHeld?.();
  }

  private async lose(): Promise<void> {
    if (this.epoch === null) return;
    this.epoch = null;
    this.lease.log?.(`lease of ${this.name}: lost, following its checkpoint instead`);
    await this.lease.onLost?.();
    await this.runner.standBy();
    if (!this.stopped) await this.watcher.start();
  }

  /**
   * Held here, the runner answers (a fault of it at once, as without leases); not held, the
   * store's checkpoint another process writes. One side at a time: a wait left on the idle side
   * would only end by its timer. When the lease comes or goes meanwhile, the side standing by
   * answers its waits false and the other answers for the time left.
   */
  async waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const held = this.held;
      const reached = await (held ? this.runner : this.watcher).waitFor(position, Math.max(0, until - Date.now()));
      if (reached || this.held === held || Date.now() >= until) return reached;
    }
  }

  issued(): Position {
    return this.runner.issued();
  }

  status(): ProjectionStatus {
    return this.held ? this.runner.status() : this.watcher.status();
  }

  retry(): void {
    this.runner.retry();
  }

  pause(): void {
    this.runner.pause();
  }

  resume(): void {
    this.runner.resume();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.turn;
    const epoch = this.epoch;
    if (epoch !== null) await this.lease.onLost?.();
    await Promise.all([this.runner.stop(), this.watcher.stop()]);
    if (epoch !== null) await this.lease.leases.release(this.name, this.lease.holder, epoch).catch(() => {});
  }
}
