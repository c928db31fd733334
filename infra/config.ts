import { join, resolve } from 'node:path';
import type { BillingSettings } from '../domain/billing.js';
import type { PlanCode } from '../domain/plan.js';
import type { RateLimitSetting } from './http/rate-limit.js';

export type Config = {
  readonly host: string;
  readonly port: number;
  readonly deliveryPort: number;
  readonly dataDir: string;
  readonly jwtSecret: string | undefined;
  /** Plan of the organization created on first start. */
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
  /** Embeddings (docs/decisions/0050): an OpenAI-compatible endpoint when `url` is set, else the embedded word vectors converted into `cacheDir`. */
  readonly embeddings: { readonly url: string | undefined; readonly model: string; readonly apiKey: string | undefined; readonly cacheDir: string };
  /** `/readyz`: most events a projection may have left to apply and still count as caught up. */
  readonly readyMaxLag: number;
  /** Shutdown: how long in-flight requests may take to finish before their connections are cut. */
  readonly shutdownGraceMs: number;
  /** The embedded read store's read models, revisions and usage applied on a thread of their own (docs/decisions/0307). */
  readonly readSideThread: boolean;
  /** The read side's thread applies the batches it has at once in one transaction (docs/decisions/0311). */
  readonly readSideOneCommit: boolean;
  /** The read side's thread applies each group committed during its WAL sync and commits it once its batches come (docs/decisions/0313). */
  readonly readSidePreview: boolean;
  /** The time budget of a delivery list or search, in ms: past it the request is answered 503 (docs/decisions/0339). */
  readonly queryTimeoutMs: number;
};

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

function onOff(value: string | undefined, fallback: boolean, name: string): boolean {
  if (value === undefined || value === '') return fallback;
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new Error(`${name} must be on or off, got ${value}`);
}

/** Configuration from the environment; every value has a default that runs the embedded stores. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const plan = (env.PLAN ?? 'free') as PlanCode;
  if (!PLANS.includes(plan)) throw new Error(`PLAN must be one of ${PLANS.join(', ')}`);
  return {
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
    readSideThread: onOff(env.READ_SIDE_THREAD, true, 'READ_SIDE_THREAD'),
    readSideOneCommit: onOff(env.READ_SIDE_ONE_COMMIT, true, 'READ_SIDE_ONE_COMMIT'),
    readSidePreview: onOff(env.READ_SIDE_PREVIEW, false, 'READ_SIDE_PREVIEW'),
    queryTimeoutMs: positive(env.QUERY_TIMEOUT_MS, 'QUERY_TIMEOUT_MS') ?? 1000,
    embeddings: {
      url: env.EMBEDDINGS_URL || undefined,
      model: env.EMBEDDINGS_MODEL || 'text-embedding-3-small',
      apiKey: env.EMBEDDINGS_API_KEY || undefined,
      cacheDir: resolve(env.EMBEDDINGS_CACHE_DIR || join(env.DATA_DIR ?? './data', 'cache')),
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
