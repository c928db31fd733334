import autocannon from 'autocannon';
import type { Cleanup } from './cleanup.js';
import { Latency } from './latency.js';

export type Target = {
  readonly name: string;
  /** GET unless set; a POST sends `body()` (called per request). */
  readonly method?: 'GET' | 'POST';
  readonly body?: () => string;
  readonly origin: string;
  /** The path of each request (called per request). */
  readonly path: () => string;
  /** Extra headers of each request (credentials). */
  readonly headers?: () => Record<string, string>;
};

function request(target: Target): autocannon.Request {
  return {
    method: target.method ?? 'GET',
    setupRequest: (request) => ({ ...request, path: target.path(), headers: { ...request.headers, ...target.headers?.() }, body: target.body?.() }),
  };
}

export type Measurement = {
  readonly name: string;
  readonly requests: number;
  /** Requests of the warm-up before it (not in the figures). */
  readonly warmupRequests: number;
  /** Responses per second over the whole run (autocannon's per-second average undercounts a partial last second). */
  readonly rps: number;
  /** Of every response, 2xx or not, at 10 µs resolution. */
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly non2xx: number;
  readonly statusCodes: Record<string, number>;
};

const STOP_GRACE_S = 30;

function fire(cleanup: Cleanup, target: Target, seconds: number, connections: number, latency?: Latency): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    let unregister = () => {};
    const guard = setTimeout(() => instance.stop(), (seconds + STOP_GRACE_S) * 1000);
    const instance = autocannon(
      {
        url: target.origin,
        connections,
        duration: seconds,
        pipelining: 1,
        timeout: 10,
        requests: [request(target)],
      },
      (error, result) => {
        clearTimeout(guard);
        unregister();
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolve(result);
      },
    );
    if (latency) instance.on('response', (_client, _status, _bytes, ms) => latency.record(ms));
    unregister = cleanup.onAbort(() => instance.stop());
  });
}

const statusCodes = (result: autocannon.Result): Record<string, number> =>
  Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0]));

/** Warms the target up (not counted), then measures it for `seconds` with `connections`. */
export async function measure(cleanup: Cleanup, target: Target, o: { seconds: number; warmupSeconds: number; connections: number }): Promise<Measurement> {
  process.stderr.write(`${target.name}: warm-up ${o.warmupSeconds} s, then ${o.seconds} s with ${o.connections} connections\n`);
  const warm = await fire(cleanup, target, o.warmupSeconds, o.connections);
  if (warm.errors > 0 || warm.non2xx > 0) {
    process.stderr.write(`${target.name}: warm-up had ${warm.errors} errors and ${warm.non2xx} non-2xx (${JSON.stringify(statusCodes(warm))})\n`);
  }
  const latency = new Latency();
  const result = await fire(cleanup, target, o.seconds, o.connections, latency);
  return {
    name: target.name,
    requests: result.requests.total,
    warmupRequests: warm.requests.total,
    rps: result.duration > 0 ? result.requests.total / result.duration : 0,
    p50: latency.quantile(0.5),
    p99: latency.quantile(0.99),
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes: statusCodes(result),
  };
}
