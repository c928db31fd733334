import type { MetricValueWithName } from 'prom-client';

/** One label set's counts: cumulative only when read; `pending` is what the counter beside it has not been given yet. */
export type HistogramEntry = {
  readonly labels: Readonly<Record<string, string>>;
  readonly buckets: number[];
  sum: number;
  count: number;
  pending: number;
};

/**
 * A Prometheus histogram counted in plain numbers (docs/decisions/0290): a caller finds the
 * entry of its label set once (`entry`) and adds each value to it (`add`), without the label
 * object hashed and checked on every observation as prom-client's `Histogram` does. The
 * registry reads it as one of its own metrics (`get`, `reset`), in the same exposition
 * prom-client writes for a histogram: per label set the cumulative buckets with `le` first,
 * `+Inf`, `_sum` and `_count`.
 */
export class TalliedHistogram<L extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private entries = new Map<string, HistogramEntry>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly L[],
    private readonly bounds: readonly number[],
  ) {}

  /** The entry of a label set, made at its first use. */
  entry(labels: Readonly<Record<L, string>>): HistogramEntry {
    const key = this.labelNames.map((name) => labels[name]).join('\u0000');
    let entry = this.entries.get(key);
    if (!entry) {
      const own: Record<string, string> = {};
      for (const name of this.labelNames) own[name] = labels[name];
      entry = { labels: own, buckets: this.bounds.map(() => 0), sum: 0, count: 0, pending: 0 };
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** Counts one value (seconds) in an entry of this histogram. */
  add(entry: HistogramEntry, value: number): void {
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        entry.buckets[i]! += 1;
        break;
      }
    }
    entry.sum += value;
    entry.count += 1;
    entry.pending += 1;
  }

  /** prom-client's `observe(labels, value)`, for callers that observe now and then. */
  observe(labels: Readonly<Record<L, string>>, value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
    this.add(this.entry(labels), value);
  }

  /** Every entry, for a counter that counts the same observations (its `pending` is then set to 0 by the reader). */
  all(): IterableIterator<HistogramEntry> {
    return this.entries.values();
  }

  /** What the registry reads of a metric (prom-client's shape of a histogram's values). */
  get(): Promise<{ name: string; help: string; type: 'histogram'; values: MetricValueWithName<string>[]; aggregator: 'sum' }> {
    const values: MetricValueWithName<string>[] = [];
    const bucket = `${this.name}_bucket`;
    for (const entry of this.entries.values()) {
      let total = 0;
      this.bounds.forEach((le, i) => {
        total += entry.buckets[i]!;
        values.push({ labels: { le }, sharedLabels: entry.labels, value: total, metricName: bucket } as MetricValueWithName<string>);
      });
      values.push({ labels: { le: '+Inf' }, sharedLabels: entry.labels, value: entry.count, metricName: bucket } as MetricValueWithName<string>);
      values.push({ labels: {}, sharedLabels: entry.labels, value: entry.sum, metricName: `${this.name}_sum` } as MetricValueWithName<string>);
      values.push({ labels: {}, sharedLabels: entry.labels, value: entry.count, metricName: `${this.name}_count` } as MetricValueWithName<string>);
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator });
  }

  reset(): void {
    this.entries = new Map();
  }
}
