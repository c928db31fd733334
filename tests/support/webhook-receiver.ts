import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Received = { readonly headers: IncomingHttpHeaders; readonly body: string; readonly status: number; readonly at: number };

/**
 * A webhook receiver on 127.0.0.1 (port 0) whose answers are scripted: each request takes the
 * next status of `script` (then `fallback`); every request is recorded with what it answered.
 */
export async function startReceiver(fallback = 200): Promise<{
  readonly url: string;
  readonly received: Received[];
  script(...statuses: number[]): void;
  /** What it answers once the script is used up. */
  answer(status: number): void;
  /** Resolves once `count` requests have come (bounded by `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  let script: number[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const status = script.shift() ?? fallback;
      received.push({ headers: req.headers, body, status, at: Date.now() });
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    script: (...statuses) => (script = statuses),
    answer: (status) => (fallback = status),
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
