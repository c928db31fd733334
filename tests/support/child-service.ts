import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BootstrapFile } from '../../infra/bootstrap.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A free TCP port on 127.0.0.1 (closed again before it is returned). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export type ChildService = {
  readonly process: ChildProcess;
  readonly base: string;
  readonly bootstrap: BootstrapFile;
  /** The process has exited (killed or crashed). */
  readonly exited: Promise<number | null>;
};

/**
 * `infra/main.ts` as a child process on 127.0.0.1 with the given data directory, resolved once
 * it answers an authenticated request (so the bootstrap and the catch-up are done).
 */
export async function startChildService(dataDir: string, env: Record<string, string> = {}, timeoutMs = 30_000): Promise<ChildService> {
  const [port, deliveryPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'infra/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), DELIVERY_PORT: String(deliveryPort), LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: 'off', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the service exited on start: ${stderr}`);
    const file = join(dataDir, 'bootstrap.json');
    if (existsSync(file)) {
      const bootstrap = JSON.parse(readFileSync(file, 'utf8')) as BootstrapFile;
      const ready = await fetch(`${base}/v1/${bootstrap.environment}/collections/tree/`, { headers: { authorization: `Bearer ${bootstrap.management_token}` } }).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ready) return { process: child, base, bootstrap, exited };
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the service did not start in ${timeoutMs} ms: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A management request to a child service with its bootstrap token. */
export type ChildApi = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any; headers: Headers }>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const apiOf =
  (child: ChildService): ChildApi =>
  async (method, path, body) => {
    const r = await fetch(`${child.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${child.bootstrap.management_token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : null, headers: r.headers };
  };

/** A process of another role (ROLE=worker or delivery) on 127.0.0.1, resolved once `/healthz` answers on the port it serves. */
export type RoleProcess = { readonly process: ChildProcess; readonly port: number; readonly deliveryPort: number; readonly exited: Promise<number | null> };

export async function startRoleProcess(dataDir: string, role: 'worker' | 'delivery', env: Record<string, string> = {}, timeoutMs = 30_000): Promise<RoleProcess> {
  const [port, deliveryPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'infra/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), DELIVERY_PORT: String(deliveryPort), LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: 'off', ...env, ROLE: role },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const health = `http://127.0.0.1:${role === 'worker' ? port : deliveryPort}/healthz`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the ${role} process exited on start: ${stderr}`);
    if (await fetch(health).then((r) => r.status === 200, () => false)) return { process: child, port, deliveryPort, exited };
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the ${role} process did not start in ${timeoutMs} ms: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Calls `done` every 25 ms until it holds (true) or `timeoutMs` passes (false). */
export async function until(done: () => Promise<boolean> | boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}
