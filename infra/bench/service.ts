import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { alive, type Cleanup } from './cleanup.js';
import { call, freePort, sleep } from './http.js';
import { SERVICE_V8_FLAGS } from '../heap-limit.js';
import { bundleRebuild, bundleService, SERVICE_BUNDLE } from '../cli/build-if-stale.mjs';

export type Bootstrap = {
  readonly environment: string;
  readonly management_token: string;
  readonly base_url: string;
  readonly delivery_url: string;
};

const START_TIMEOUT_MS = 60_000;
const TAIL_LINES = 40;

const redact = (line: string): string => line.replace(/("management_token"\s*:\s*")[^"]*"/g, '$1<redacted>"').replace(/eyJ[\w-]+\.[\w-]+\.[\w-]+/g, '<jwt>');

/** The child's output: the last lines (for failures) and the log lines at warn level or above. */
export class ChildOutput {
  readonly tail: string[] = [];
  readonly warnings: string[] = [];
  warningCount = 0;
  private partial = '';

  attach(child: ChildProcess): void {
    const take = (chunk: Buffer) => {
      const lines = (this.partial + chunk.toString('utf8')).split('\n');
      this.partial = lines.pop() ?? '';
      for (const line of lines) this.line(line);
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
  }

  private line(raw: string): void {
    if (!raw.trim()) return;
    const line = redact(raw);
    this.tail.push(line);
    if (this.tail.length > TAIL_LINES) this.tail.shift();
    try {
      const entry = JSON.parse(line) as { level?: unknown };
      if (typeof entry.level === 'number' && entry.level >= 40) {
        this.warningCount++;
        if (this.warnings.length < 5) this.warnings.push(line.slice(0, 2_000));
      }
    } catch {
      // not a log line (the first-start banner)
    }
  }
}

/** `BENCH_CPU_PROF=<dir>`: the service writes a V8 CPU profile there when it stops (node --cpu-prof). */
const profileArgs = (): string[] => (process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []);

/**
 * Node's arguments for the built service: the V8 flags `npm start` and the container pass too (heap limit, young generation), then `execArgv`;
 * the compiled modules (their profiles name each file and package) or, for the restart scenarios, the bundle `npm start` runs (docs/decisions/0382).
 */
export const serviceNodeArgs = (execArgv: readonly string[], bundle = false): string[] => [
  ...SERVICE_V8_FLAGS,
  ...execArgv,
  ...profileArgs(),
  bundle ? join(SERVICE_BUNDLE, 'main.js') : join('dist', 'infra', 'main.js'),
];

export type ServiceChild = { readonly child: ChildProcess; readonly output: ChildOutput; readonly bootstrap: Bootstrap };

async function readBootstrap(dataDir: string): Promise<Bootstrap | null> {
  try {
    const parsed = JSON.parse(await readFile(join(dataDir, 'bootstrap.json'), 'utf8')) as Partial<Bootstrap>;
    return parsed.management_token && parsed.base_url && parsed.delivery_url && parsed.environment ? (parsed as Bootstrap) : null;
  } catch {
    return null; // not there yet, or half written
  }
}

export type SpawnOptions = {
  /** Node flags for the service (e.g. `--cpu-prof`). */
  readonly execArgv?: readonly string[];
  /** Runs the bundle `npm start` runs instead of the compiled modules (the restart scenario: a start's time is mostly module loading). */
  readonly bundle?: boolean;
  /** Settings beside the benchmark's own (ROLE, DELIVERY_PROCESSES). */
  readonly env?: Readonly<Record<string, string>>;
};

const BUILD_TIMEOUT_MS = 5 * 60_000;

/**
 * Compiles the service to `dist/` as `npm start` does (`tsc -p tsconfig.build.json`, then the rebuild's and the service's bundles): the
 * benchmark measures what users run, not the TypeScript loader (which adds about 40 MB of
 * memory and most of the start-up time).
 */
export async function buildService(root: string): Promise<void> {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const child = spawn(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = new ChildOutput();
  output.attach(child);
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`building the service took longer than ${BUILD_TIMEOUT_MS / 1000} s`));
    }, BUILD_TIMEOUT_MS);
    child.once('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  if (code !== 0) throw new Error(`building the service failed (tsc exit ${code}):\n${output.tail.join('\n')}`);
  // The rebuild scenario runs `npm run rebuild`'s bundle of what was just compiled (docs/decisions/0298), the restart scenario `npm start`'s (0382).
  bundleRebuild(root);
  bundleService(root);
}

/** Two distinct free ports of 127.0.0.1: management and delivery. */
export async function freePorts(): Promise<{ port: number; deliveryPort: number }> {
  const port = await freePort();
  let deliveryPort = await freePort();
  for (let i = 0; i < 10 && deliveryPort === port; i++) deliveryPort = await freePort();
  return { port, deliveryPort };
}

/** The built service (`dist/infra/main.js`, see buildService) as a child process on the embedded stores in `dataDir`, listening on 127.0.0.1 at these ports. */
export function spawnService(
  cleanup: Cleanup,
  root: string,
  dataDir: string,
  ports: { port: number; deliveryPort: number },
  options: SpawnOptions = {},
): { child: ChildProcess; output: ChildOutput } {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(ports.port),
    DELIVERY_PORT: String(ports.deliveryPort),
    DATA_DIR: dataDir,
    PLAN: 'pro',
    // Seeding sends many management requests a minute: the benchmark measures speed, not the rate limit.
    RATE_LIMIT_PER_MINUTE: 'off',
    LOG_LEVEL: process.env.BENCH_SERVICE_LOG_LEVEL || 'warn',
    ...options.env,
  };
  for (const name of ['EVENTSTORE_URL', 'MONGO_URL', 'OPENSEARCH_URL', 'JWT_SECRET']) delete env[name];
  const args = serviceNodeArgs(options.execArgv ?? [], options.bundle);
  const child = cleanup.child(spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] }));
  const output = new ChildOutput();
  output.attach(child);
  return { child, output };
}

/**
 * The service, built first (buildService), as a child process on the embedded stores in
 * `dataDir`, on two free ports of 127.0.0.1; resolves once bootstrap.json exists and the
 * management URL answers.
 */
export async function startServiceChild(cleanup: Cleanup, root: string, dataDir: string, options: SpawnOptions = {}): Promise<ServiceChild> {
  await buildService(root);
  const { child, output } = spawnService(cleanup, root, dataDir, await freePorts(), options);
  const failed = (why: string) => new Error(`service ${why}; its last output:\n${output.tail.join('\n')}`);

  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (!alive(child)) throw failed(`exited with ${child.exitCode ?? child.signalCode} while starting`);
    const bootstrap = await readBootstrap(dataDir);
    if (bootstrap) {
      try {
        await call(`${bootstrap.base_url}/v1/${bootstrap.environment}/collections/`, { token: bootstrap.management_token, timeoutMs: 5_000 });
        return { child, output, bootstrap };
      } catch {
        // not answering yet
      }
    }
    await sleep(100);
  }
  throw failed(`did not start within ${START_TIMEOUT_MS / 1000} s`);
}
