import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestService } from './service.js';

/**
 * The service's delivery express app served alone on a port of its own, beside the delivery front
 * that normally takes every request first: the front tests compare both answers to the same
 * request, and count the requests that entered the express app (through either server).
 */
export type ExpressBeside = {
  /** Origin of the express app alone. */
  readonly expressOrigin: string;
  /** Origin of the service's delivery listener (the front). */
  readonly frontOrigin: string;
  /** Path of the delivery environment (the delivery URL's path). */
  readonly envPath: string;
  /** Requests the express app has received so far. */
  calls(): number;
  close(): Promise<void>;
};

export async function expressBeside(s: TestService): Promise<ExpressBeside> {
  let calls = 0;
  const app = s.service.apps.delivery as unknown as { handle: (...args: unknown[]) => unknown };
  const handle = app.handle.bind(app);
  app.handle = (...args: unknown[]) => {
    calls++;
    return handle(...args);
  };
  const server: Server = createServer((req, res) => handle(req, res, () => res.writeHead(404).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const delivery = new URL(s.delivery);
  return {
    expressOrigin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    frontOrigin: delivery.origin,
    envPath: delivery.pathname,
    calls: () => calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
