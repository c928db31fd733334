import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export { sleep };

const REQUEST_TIMEOUT_MS = 30_000;

/** A port free on 127.0.0.1 right now (the OS picks it; the listener is closed again). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no port assigned'))));
    });
  });
}

export type Answer = { readonly status: number; readonly body: unknown; readonly text: string };

/** One JSON request with a timeout; never throws on an HTTP status, only on network errors. */
export async function call(
  url: string,
  init: { method?: string; token?: string; body?: unknown; timeoutMs?: number } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(init.timeoutMs ?? REQUEST_TIMEOUT_MS),
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: res.status, body, text };
}

/** `call` that insists on one status and returns the body. */
export async function expect<T>(status: number, what: string, url: string, init: Parameters<typeof call>[1] = {}): Promise<T> {
  const answer = await call(url, init);
  if (answer.status !== status) {
    throw new Error(`${what}: ${init.method ?? 'GET'} ${url} answered ${answer.status} (expected ${status}): ${answer.text.slice(0, 500)}`);
  }
  return answer.body as T;
}
