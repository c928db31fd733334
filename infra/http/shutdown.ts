import type { Server } from 'node:http';

/**
 * Stops a server the way SIGTERM should: no new connections, every request already in
 * flight answered, idle keep-alive connections closed as soon as they are idle; whatever is
 * still open after `graceMs` is cut.
 */
export function closeGracefully(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    const idle = setInterval(() => server.closeIdleConnections(), 20);
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}
