import type { EventStore, Position, StoredEvent } from '../commands/ports.js';
import type { Consumer, ProjectionStatus } from './runner.js';
import { Waiters } from './waiters.js';

/** How often a watcher reads the checkpoint with nobody waiting: the caches it evicts are at most this late. */
const IDLE_MS = 50;
/** Events read from the log per page, for the after-batch hook. */
const PAGE = 1000;

/**
 * A projection that another process applies, followed through its checkpoint as the store holds
 * it (docs/decisions/0387): a `wait=true` write waits on it, and the caches a local runner would
 * evict after each batch (routing, served answers, credentials) are evicted here after the store
 * holds the batch, from the events between the last checkpoint read and this one. With a waiter
 * it reads at once, then backs off (1, 2, 4 … ms) to the idle period.
 */
export class CheckpointWatcher implements Consumer {
  private position: Position = '';
  private readonly waiters = new Waiters();
  private running = false;
  private paused = false;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private delayMs = IDLE_MS;
  /** For a reactor: the log's head when its checkpoint last moved. */
  private head: Position = '';

  constructor(
    private readonly store: EventStore,
    readonly name: string,
    private readonly read: () => Promise<Position>,
    private readonly options: {
      readonly afterBatch?: (batch: readonly StoredEvent[]) => Promise<void>;
      /** The hook reads no event: it is called with none, and the log is not read for it. */
      readonly withoutEvents?: boolean;
      readonly log?: (message: string, error?: unknown) => void;
      /**
       * A reactor: `issued()` answers the log's head when its checkpoint last moved, an upper
       * bound of what its reactions appended (a `wait=true` delete waits for its cascade, 0387).
       */
      readonly reactor?: boolean;
    } = {},
  ) {}

  get checkpoint(): Position {
    return this.position;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const now = await this.read();
    if (now > this.position) this.position = now;
    this.release();
    this.schedule(IDLE_MS);
  }

  /** Stops reading (the process took the lease: its runner applies now); waiters stay. */
  async standBy(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.polling;
    // Its waits are answered false: whoever waits goes on with the runner that applies it here now.
    this.waiters.endAll();
  }

  private schedule(ms: number): void {
    if (!this.running || this.paused) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), ms).unref();
  }

  private async poll(): Promise<void> {
    this.timer = null;
    if (this.polling) return;
    this.polling = this.advance()
      .catch((error: unknown) => this.options.log?.(`watching ${this.name}: reading its checkpoint failed`, error))
      .finally(() => (this.polling = null));
    await this.polling;
    this.delayMs = this.waiters.size > 0 ? Math.min(this.delayMs * 2, IDLE_MS) : IDLE_MS;
    this.schedule(this.delayMs);
  }

  private async advance(): Promise<void> {
    const now = await this.read();
    if (now <= this.position) return;
    if (this.options.reactor) this.head = await this.store.headPosition();
    if (this.options.afterBatch) {
      const batch: StoredEvent[] = [];
      let after = this.position;
      while (!this.options.withoutEvents) {
        const page = await this.store.readAll(after, PAGE);
        for (const event of page) if (event.position <= now) batch.push(event);
        const last = page[page.length - 1];
        if (!last || page.length < PAGE || last.position >= now) break;
        after = last.position;
      }
      await this.options.afterBatch(batch).catch((error: unknown) => this.options.log?.(`watching ${this.name}: after-batch hook failed`, error));
    }
    this.position = now;
    this.release();
  }

  /**
   * Reads the checkpoint now and, when it moved, runs the after-batch hook up to it before
   * answering: a delivery process evicts its cached answers first, so none it serves is older than
   * its own read of the index (docs/decisions/0388). Callers at the same time share one advance.
   */
  async current(): Promise<void> {
    const now = await this.read();
    while (this.position < now) {
      this.polling ??= this.advance().finally(() => (this.polling = null));
      await this.polling;
    }
  }

  private release(): void {
    this.waiters.release(this.position);
  }

  waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    if (position <= this.position) return Promise.resolve(true);
    const reached = this.waiters.add(position, timeoutMs);
    // Read now, then back off from 1 ms.
    this.delayMs = 1;
    if (this.running && !this.polling) this.schedule(0);
    return reached;
  }

  issued(): Position {
    return this.head;
  }

  status(): ProjectionStatus {
    return { name: this.name, position: this.position, lag: 0, stopped: false, error: null };
  }

  /** Nothing to retry here: the process that applies the projection retries it. */
  retry(): void {}

  pause(): void {
    this.paused = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  resume(): void {
    this.paused = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    await this.standBy();
  }
}
