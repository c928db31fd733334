import { DomainError } from '../../domain/errors.js';
import type { Doc, ReadStore } from '../../projections/ports.js';
import { SCHEDULER_DUE } from '../../projections/schedules.js';
import type { CommandBus } from '../command-bus.js';
import type { DataValidator } from '../data-validator.js';
import { publishScheduled } from '../revisions.js';

/** The scheduler reactor's consumer and table (fed by `schedulesProjection`, docs/decisions/0357). */
export const SCHEDULER = { name: 'scheduler', table: SCHEDULER_DUE } as const;

/** The events that change `scheduler_due`: the scheduler looks at it again after a batch with one. */
export const SCHEDULE_EVENTS: ReadonlySet<string> = new Set(['RevisionScheduled', 'RevisionScheduleCancelled', 'RevisionPublished', 'RevisionDeleted', 'ResourceDeleted', 'CollectionDeleted']);

/** The longest one timer is set for (a later schedule is looked at again then). */
const MAX_SLEEP_MS = 60_000;
/** After a fire failed for another reason than the schedule being gone (an outage), tried again this soon. */
const RETRY_MS = 1000;

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * Fires due schedules: one timer for the soonest row of `scheduler_due`, armed at start (a
 * schedule due while the service was down fires then) and after each batch the scheduler's
 * consumer applies. A fire is the resource's publish command: the row leaves the table when the
 * publish comes back through the log, and until then a second fire is decided on the stream
 * where the schedule is gone, and appends nothing.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** Schedules fired and not yet gone from the table (`revision@publish_at`). */
  private readonly fired = new Set<string>();

  constructor(
    private readonly store: ReadStore,
    private readonly bus: CommandBus,
    private readonly validator: DataValidator,
    private readonly log: (message: string, error?: unknown) => void,
  ) {}

  /** Looks at the table now. */
  arm(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.round()
      .catch((error: unknown) => {
        this.log('scheduler: round failed', error);
        this.sleep(RETRY_MS);
      })
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.arm();
        }
      });
  }

  private sleep(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.arm(), Math.min(Math.max(ms, 0), MAX_SLEEP_MS)).unref();
  }

  private async round(): Promise<void> {
    const table = this.store.collection(SCHEDULER.table);
    const due = await table.find({ publish_at: { $lte: iso(Date.now()) } }, { sort: [['publish_at', 1]], limit: 100 });
    const present = new Set(due.map((doc) => `${doc._id}@${String(doc.publish_at)}`));
    for (const id of this.fired) if (!present.has(id)) this.fired.delete(id);
    let failed = false;
    for (const doc of due) {
      if (this.stopped) return;
      const id = `${doc._id}@${String(doc.publish_at)}`;
      if (this.fired.has(id)) continue;
      if (await this.fire(doc)) this.fired.add(id);
      else failed = true;
    }
    const [next] = await table.find({ publish_at: { $gt: iso(Date.now()) } }, { sort: [['publish_at', 1]], limit: 1 });
    const wait = next ? Date.parse(String(next.publish_at)) - Date.now() : MAX_SLEEP_MS;
    this.sleep(failed ? Math.min(RETRY_MS, wait) : wait);
  }

  /** True when the fire is done with: published, or refused because the schedule, revision or resource is gone. */
  private async fire(doc: Doc): Promise<boolean> {
    const schedule = { env: String(doc.env), folder: String(doc.folder), resource: String(doc.resource), revision: String(doc.revision), publish_at: String(doc.publish_at) };
    try {
      await publishScheduled(this.bus, this.validator, schedule, iso(Date.now()));
      return true;
    } catch (error) {
      if (error instanceof DomainError && error.code !== 'revision_number_conflict') return true;
      this.log(`scheduler: publishing ${schedule.revision} failed, trying again`, error);
      return false;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
