/**
 * Response times in 10 µs buckets up to 10 s (a fixed 4 MB, whatever the request count):
 * autocannon's own histogram has 1 ms resolution, too coarse for a local bare server.
 */
export class Latency {
  private static readonly BUCKET_MS = 0.01;
  private readonly buckets = new Uint32Array(1_000_001);
  private count = 0;

  record(ms: number): void {
    const i = Math.min(Math.max(Math.floor(ms / Latency.BUCKET_MS), 0), this.buckets.length - 1);
    this.buckets[i] = (this.buckets[i] ?? 0) + 1;
    this.count++;
  }

  get samples(): number {
    return this.count;
  }

  /** The upper edge of the bucket holding the q-quantile (0 < q <= 1), in ms; NaN without samples. */
  quantile(q: number): number {
    if (this.count === 0) return Number.NaN;
    const rank = Math.ceil(q * this.count);
    let seen = 0;
    for (let i = 0; i < this.buckets.length; i++) {
      seen += this.buckets[i] ?? 0;
      if (seen >= rank) return (i + 1) * Latency.BUCKET_MS;
    }
    return Number.POSITIVE_INFINITY;
  }
}
