import type { CommandBus } from '../../commands/command-bus.js';
import { disableWebhook } from '../../commands/webhooks.js';
import type { Doc, ReadStore } from '../../projections/ports.js';
import { TABLES } from '../../projections/webhook-deliveries.js';
import { refuseUnreachable } from './reach.js';
import { signedHeaders } from './signature.js';

export type SenderSettings = {
  /** Delays before each retry (WEBHOOK_RETRY_DELAYS_MS); after the last, the delivery is failed. */
  readonly retryDelaysMs: readonly number[];
  /** A 2xx within this long is a success (10 s). */
  readonly timeoutMs: number;
  /** A webhook failing for this long straight is disabled (5 days). */
  readonly disableAfterMs: number;
  readonly allowPrivateNetworks: boolean;
};

/** Due deliveries read per round. */
const ROUND = 500;
/** The longest the sender sleeps without a look at the table. */
const MAX_SLEEP_MS = 60_000;

const iso = (ms: number): string => new Date(ms).toISOString();
const messageOf = (error: unknown): string => {
  if (error instanceof Error && error.name === 'TimeoutError') return 'timed out';
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return error instanceof Error ? `${error.message}${cause}` : String(error);
};

/** The delay before retry `n` (1-based), with ±20% jitter; null after the last. */
export function retryDelay(delays: readonly number[], attempts: number, random: () => number = Math.random): number | null {
  const base = delays[attempts - 1];
  if (base === undefined) return null;
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * Drains `webhook_deliveries` (docs/decisions/0355): each webhook has its own lane, one attempt
 * at a time, so a slow or dead receiver holds up only its own deliveries; within a lane an
 * entity's deliveries go in log order (a later one waits while an earlier one is pending).
 * At-least-once: a crash between a send and its record sends it again, with the same `webhook-id`.
 */
export class WebhookSender {
  private readonly busy = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** Cuts the attempts in flight when the service stops (they are sent again after the restart). */
  private readonly stopping = new AbortController();

  constructor(
    private readonly store: ReadStore,
    private readonly bus: CommandBus,
    private readonly settings: SenderSettings,
    private readonly log: (message: string, error?: unknown) => void,
  ) {}

  start(): void {
    this.wake();
  }

  /** Looks at the table now (new deliveries, a retry asked for). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.round()
      .catch((error: unknown) => this.log('webhook sender: round failed', error))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async round(): Promise<void> {
    const deliveries = this.store.collection(TABLES.deliveries);
    const now = Date.now();
    const due = await deliveries.find({ status: 'pending', next_attempt_at: { $lte: iso(now) } }, { sort: [['position', 1]], limit: ROUND });
    const lanes = new Map<string, Doc[]>();
    for (const doc of due) {
      const hook = String(doc.webhook);
      if (this.busy.has(hook)) continue;
      lanes.set(hook, [...(lanes.get(hook) ?? []), doc]);
    }
    for (const [hook, docs] of lanes) {
      this.busy.add(hook);
      void this.lane(hook, docs)
        .catch((error: unknown) => {
          this.log(`webhook sender: lane of ${hook} failed`, error);
          return false;
        })
        .then((worked) => {
          this.busy.delete(hook);
          // Only a lane that sent or recorded something looks again at once: one that found all
          // its deliveries held behind earlier ones waits for the timer (no round without I/O).
          if (worked) this.wake();
        });
    }
    // Sleep until the next pending delivery falls due (a lane that ends wakes it sooner).
    const [next] = await deliveries.find({ status: 'pending', next_attempt_at: { $gt: iso(now) } }, { sort: [['next_attempt_at', 1]], limit: 1 });
    const wait = next ? Date.parse(String(next.next_attempt_at)) - Date.now() : MAX_SLEEP_MS;
    if (this.timer) clearTimeout(this.timer);
    if (!this.stopped) this.timer = setTimeout(() => this.wake(), Math.min(Math.max(wait, 10), MAX_SLEEP_MS)).unref();
  }

  /** One webhook's due deliveries, in log order; true when it attempted or recorded anything. */
  private async lane(hook: string, docs: readonly Doc[]): Promise<boolean> {
    const target = await this.store.collection(TABLES.targets).get(hook);
    const deliveries = this.store.collection(TABLES.deliveries);
    if (!target || target.enabled !== true) {
      // Not sent to a disabled webhook: failed, to be sent again with retry once it is enabled.
      for (const doc of docs) await deliveries.upsert({ ...doc, status: 'failed', last_error: 'the webhook is disabled', next_attempt_at: null });
      return docs.length > 0;
    }
    const held = new Set<string>();
    let worked = false;
    for (const doc of docs) {
      if (this.stopped) return worked;
      const order = String(doc.order_key);
      if (held.has(order)) continue;
      const [earlier] = await deliveries.find({ webhook: hook, order_key: order, status: 'pending', position: { $lt: String(doc.position) } }, { limit: 1 });
      if (earlier) {
        held.add(order);
        continue;
      }
      worked = true;
      if (!(await this.attempt(target, doc))) held.add(order);
    }
    return worked;
  }

  /** One POST of one delivery and its record; true when it was delivered. */
  private async attempt(target: Doc, doc: Doc): Promise<boolean> {
    const started = Date.now();
    let status: number | null = null;
    let error: string | null = null;
    try {
      const url = String(target.url);
      await refuseUnreachable(url, this.settings.allowPrivateNetworks);
      const body = String(doc.body);
      const response = await fetch(url, {
        method: 'POST',
        headers: signedHeaders(String(target.secret), String(doc.event), body, started),
        body,
        // A redirect is not followed: it could lead anywhere, a private address too.
        redirect: 'manual',
        signal: AbortSignal.any([AbortSignal.timeout(this.settings.timeoutMs), this.stopping.signal]),
      });
      status = response.status;
      await response.body?.cancel().catch(() => {});
      if (status < 200 || status > 299) error = `answered ${status}`;
    } catch (failure) {
      error = messageOf(failure);
    }
    if (this.stopped) return false;
    const attempts = Number(doc.attempts) + 1;
    const now = Date.now();
    const deliveries = this.store.collection(TABLES.deliveries);
    if (error === null) {
      await deliveries.upsert({ ...doc, status: 'delivered', attempts, last_status_code: status, last_error: null, next_attempt_at: null, delivered_at: iso(now) });
      await this.store.collection(TABLES.health).delete(String(target._id));
      return true;
    }
    const delay = retryDelay(this.settings.retryDelaysMs, attempts);
    await deliveries.upsert({
      ...doc,
      status: delay === null ? 'failed' : 'pending',
      attempts,
      last_status_code: status,
      last_error: error,
      next_attempt_at: delay === null ? null : iso(now + delay),
    });
    await this.failing(target, now);
    return false;
  }

  /** Counts a failure against the webhook: failing since its first failure after its last success; disabled past the limit. */
  private async failing(target: Doc, now: number): Promise<void> {
    const health = this.store.collection(TABLES.health);
    const key = String(target._id);
    const since = (await health.get(key))?.failing_since;
    if (typeof since !== 'string') {
      await health.upsert({ _id: key, failing_since: iso(now) });
      if (this.settings.disableAfterMs > 0) return;
    }
    const from = typeof since === 'string' ? since : iso(now);
    if (now - Date.parse(from) < this.settings.disableAfterMs) return;
    try {
      await disableWebhook(this.bus, String(target.env), key, from, iso(now));
    } catch (error) {
      this.log(`webhook sender: could not disable ${key}`, error);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    while (this.busy.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
