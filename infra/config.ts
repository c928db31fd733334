import { resolve } from 'node:path';
import { defaultWordVectorsCache } from './embeddings/word-vectors-cache.js';
import type { BillingSettings } from '../domain/billing.js';
import type { PlanCode } from '../domain/plan.js';
import type { RateLimitSetting } from './http/rate-limit.js';

/**
 * What a process runs (docs/decisions/0388): `all` everything (the default); `api` both interfaces
 * and no projection; `delivery` the delivery interface only; `worker` the projections and reactors
 * with only /healthz, /readyz and /metrics on PORT.
 */
export type Role = 'all' | 'api' | 'delivery' | 'worker';
export const ROLES: readonly Role[] = ['all', 'api', 'delivery', 'worker'];

export type Config = {
  /** ROLE. */
  readonly role: Role;
  /** DELIVERY_PROCESSES (or `npm start -- --delivery-processes N`): that many delivery processes share DELIVERY_PORT; 0 keeps the interface in this process. */
  readonly deliveryProcesses: number;
  readonly host: string;
  readonly port: number;
  readonly deliveryPort: number;
  readonly dataDir: string;
  readonly jwtSecret: string | undefined;
  /** Plan of the organization created on first start; on `enterprise` (the default) it has no quota and no rate limit (docs/decisions/0348). */
  readonly plan: PlanCode;
  readonly adminEmail: string;
  readonly eventStoreUrl: string | undefined;
  readonly mongoUrl: string | undefined;
  readonly openSearchUrl: string | undefined;
  readonly waitTimeoutMs: number;
  /** Most resources per environment, or null (the default) for no limit (docs/decisions/0031). */
  readonly resourceLimit: number | null;
  readonly logLevel: string;
  /** Management requests per minute per organization (docs/decisions/0092). */
  readonly rateLimit: RateLimitSetting;
  /** Allowances, price and spend cap of the billing axes (docs/decisions/0093). */
  readonly billing: BillingSettings;
  /** Embeddings (docs/decisions/0050): an OpenAI-compatible endpoint when `url` is set, else the embedded word vectors converted into `cacheDir` (by `npm install` for the default, 0349). */
  readonly embeddings: { readonly url: string | undefined; readonly model: string; readonly apiKey: string | undefined; readonly cacheDir: string };
  /** `/readyz`: most events a projection may have left to apply and still count as caught up. */
  readonly readyMaxLag: number;
  /** Shutdown: how long in-flight requests may take to finish before their connections are cut. */
  readonly shutdownGraceMs: number;
  /** Signed audit checkpoints (docs/decisions/0344): the Ed25519 private key's file (PEM, outside the data directory), every so many events or seconds. */
  readonly audit: { readonly signingKeyFile: string | undefined; readonly checkpointEvents: number; readonly checkpointSeconds: number };
  /** Webhook delivery (docs/decisions/0355, 0356). */
  readonly webhooks: {
    /** WEBHOOK_RETRY_DELAYS_MS: the delay before each retry; after the last, a delivery is failed. */
    readonly retryDelaysMs: readonly number[];
    /** WEBHOOK_TIMEOUT_MS: a 2xx within this long is a success. */
    readonly timeoutMs: number;
    /** WEBHOOK_DISABLE_AFTER_MS: a webhook failing this long straight is disabled. */
    readonly disableAfterMs: number;
    /** WEBHOOK_ALLOW_PRIVATE_NETWORKS=true: URLs may reach loopback and private addresses. */
    readonly allowPrivateNetworks: boolean;
  };
  /** The time budget of a delivery list or search, in ms: past it the request is answered 503 (docs/decisions/0339). */
  readonly queryTimeoutMs: number;
};

/** About 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (docs/decisions/0355). */
const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

function delays(value: string | undefined): number[] {
  if (value === undefined || value === '') return RETRY_DELAYS_MS;
  const list = value.split(',').map((part) => Number(part.trim()));
  if (list.some((n) => !Number.isInteger(n) || n < 0)) throw new Error(`WEBHOOK_RETRY_DELAYS_MS must be a comma list of non-negative integers, got ${value}`);
  return list;
}

function trueFalse(value: string | undefined, name: string): boolean {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw new Error(`${name} must be true or false, got ${value}`);
}

const PLANS: readonly PlanCode[] = ['free', 'starter', 'pro', 'enterprise'];

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${value}`);
  return n;
}

function positive(value: string | undefined, name: string): number | null {
  if (value === undefined || value === '') return null;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${value}`);
  return n;
}

/** Configuration from the environment; every value has a default that runs the embedded stores. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const plan = (env.PLAN || 'enterprise') as PlanCode;
  if (!PLANS.includes(plan)) throw new Error(`PLAN must be one of ${PLANS.join(', ')}`);
  const role = (env.ROLE || 'all') as Role;
  if (!ROLES.includes(role)) throw new Error(`ROLE must be one of ${ROLES.join(', ')}, got ${env.ROLE}`);
  const deliveryProcesses = int(env.DELIVERY_PROCESSES, 0, 'DELIVERY_PROCESSES');
  if (deliveryProcesses > 0 && role !== 'all' && role !== 'api') throw new Error(`DELIVERY_PROCESSES goes with ROLE all or api (the process that starts them), not ${role}`);
  if (deliveryProcesses > 0 && env.DELIVERY_PORT === '0') throw new Error('DELIVERY_PROCESSES needs a fixed DELIVERY_PORT: the processes share it');
  return {
    role,
    deliveryProcesses,
    host: env.HOST ?? '127.0.0.1',
    port: int(env.PORT, 3000, 'PORT'),
    deliveryPort: int(env.DELIVERY_PORT, 3001, 'DELIVERY_PORT'),
    dataDir: resolve(env.DATA_DIR ?? './data'),
    jwtSecret: env.JWT_SECRET || undefined,
    plan,
    adminEmail: env.ADMIN_EMAIL ?? 'admin@localhost',
    eventStoreUrl: env.EVENTSTORE_URL || undefined,
    mongoUrl: env.MONGO_URL || undefined,
    openSearchUrl: env.OPENSEARCH_URL || undefined,
    waitTimeoutMs: int(env.WAIT_TIMEOUT_MS, 5000, 'WAIT_TIMEOUT_MS'),
    resourceLimit: positive(env.RESOURCE_LIMIT, 'RESOURCE_LIMIT'),
    logLevel: env.LOG_LEVEL ?? 'info',
    readyMaxLag: int(env.READY_MAX_LAG, 100, 'READY_MAX_LAG'),
    shutdownGraceMs: int(env.SHUTDOWN_GRACE_MS, 10_000, 'SHUTDOWN_GRACE_MS'),
    audit: {
      signingKeyFile: env.AUDIT_SIGNING_KEY_FILE ? resolve(env.AUDIT_SIGNING_KEY_FILE) : undefined,
      checkpointEvents: positive(env.AUDIT_CHECKPOINT_EVENTS, 'AUDIT_CHECKPOINT_EVENTS') ?? 1000,
      checkpointSeconds: positive(env.AUDIT_CHECKPOINT_SECONDS, 'AUDIT_CHECKPOINT_SECONDS') ?? 300,
    },
    webhooks: {
      retryDelaysMs: delays(env.WEBHOOK_RETRY_DELAYS_MS),
      timeoutMs: int(env.WEBHOOK_TIMEOUT_MS, 10_000, 'WEBHOOK_TIMEOUT_MS'),
      disableAfterMs: int(env.WEBHOOK_DISABLE_AFTER_MS, 5 * 24 * 3_600_000, 'WEBHOOK_DISABLE_AFTER_MS'),
      allowPrivateNetworks: trueFalse(env.WEBHOOK_ALLOW_PRIVATE_NETWORKS, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS'),
    },
    queryTimeoutMs: positive(env.QUERY_TIMEOUT_MS, 'QUERY_TIMEOUT_MS') ?? 1000,
    embeddings: {
      url: env.EMBEDDINGS_URL || undefined,
      model: env.EMBEDDINGS_MODEL || 'text-embedding-3-small',
      apiKey: env.EMBEDDINGS_API_KEY || undefined,
      cacheDir: resolve(env.EMBEDDINGS_CACHE_DIR || defaultWordVectorsCache()),
    },
    ...tenancyConfig(env),
  };
}

function decimal(value: string | undefined, fallback: number | null, name: string): number | null {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got ${value}`);
  return n;
}

/** RATE_LIMIT_PER_MINUTE, FREE_WRITES_PER_MONTH, FREE_VECTOR_STORAGE_BYTES, WRITE_PRICE_USD, SPEND_CAP_USD. */
function tenancyConfig(env: NodeJS.ProcessEnv): { rateLimit: RateLimitSetting; billing: BillingSettings } {
  const rpm = env.RATE_LIMIT_PER_MINUTE;
  const rateLimit: RateLimitSetting = rpm === undefined || rpm === '' || rpm === 'plan' ? 'plan' : rpm === 'off' ? 'off' : (positive(rpm, 'RATE_LIMIT_PER_MINUTE') ?? 'plan');
  return {
    rateLimit,
    billing: {
      freeWrites: int(env.FREE_WRITES_PER_MONTH, 100_000, 'FREE_WRITES_PER_MONTH'),
      freeVectorStorageBytes: int(env.FREE_VECTOR_STORAGE_BYTES, 100 * 1024 * 1024, 'FREE_VECTOR_STORAGE_BYTES'),
      writePriceUsd: decimal(env.WRITE_PRICE_USD, 0.0001, 'WRITE_PRICE_USD') ?? 0.0001,
      spendCapUsd: decimal(env.SPEND_CAP_USD, null, 'SPEND_CAP_USD'),
    },
  };
}

/** `npm start -- --delivery-processes N`: the command line's settings, as the environment variables they stand for. */
export function argvSettings(argv: readonly string[]): Record<string, string> {
  const settings: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.split('=', 2) as [string, string | undefined];
    if (flag !== '--delivery-processes') continue;
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error('--delivery-processes needs a number');
    settings.DELIVERY_PROCESSES = value;
  }
  return settings;
}
