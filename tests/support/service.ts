import { loadConfig } from '../../infra/config.js';
import { createLogger } from '../../infra/logger.js';
import { startService, type Service, type ServiceOptions } from '../../infra/service.js';
import { TEST_EMBEDDINGS_CACHE } from './embeddings.js';
import { tempDir } from './temp.js';

export type Reply = { status: number; body: any; headers: Headers }; // eslint-disable-line @typescript-eslint/no-explicit-any

export type TestService = {
  readonly service: Service;
  readonly dataDir: string;
  readonly env: string;
  readonly token: string;
  readonly base: string;
  readonly delivery: string;
  /** A management request with the bootstrap token (unless headers say otherwise). */
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** A request to an absolute URL, no credentials. */
  get(url: string, headers?: Record<string, string>): Promise<Reply>;
  stop(): Promise<void>;
};

async function reply(response: Response): Promise<Reply> {
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

/** The real service on 127.0.0.1, free ports and a fresh data directory (or the given one); `options` holds the test seams. */
export async function startTestService(env: Record<string, string> = {}, dataDir = tempDir(), options: ServiceOptions = {}): Promise<TestService> {
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', DELIVERY_PORT: '0', HOST: '127.0.0.1', PLAN: 'free', RATE_LIMIT_PER_MINUTE: 'off', EMBEDDINGS_CACHE_DIR: TEST_EMBEDDINGS_CACHE, ...env });
  const service = await startService(config, createLogger('silent'), options);
  const file = service.bootstrap;
  if (!file) throw new Error('no bootstrap.json');
  const base = service.urls.base;
  return {
    service,
    dataDir,
    env: file.environment,
    token: file.management_token,
    base,
    delivery: file.delivery_url,
    async api(method, path, body, headers = {}) {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${file.management_token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      return reply(response);
    },
    async get(url, headers = {}) {
      return reply(await fetch(url, { headers }));
    },
    stop: () => service.stop(),
  };
}
