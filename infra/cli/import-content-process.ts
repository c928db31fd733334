import { existsSync, readFileSync } from 'node:fs';
import type { EventMetadata } from '../../commands/ports.js';
import { isoNow } from '../../commands/time-text.js';
import type { Principal } from '../../api/principal.js';
import type { Projections } from '../../projections/runner.js';
import { createResourceHandler, upsertResourceHandler } from '../../write-api/resources.js';
import type { ApiHandler, ApiRequest } from '../../api/handler.js';
import type { TenancyContext } from '../../commands/tenancy-context.js';
import { managementTokenClaims, userPrincipal } from '../auth/management-auth.js';
import { jwtSecret } from '../auth/jwt-secret.js';
import { bootstrapPath, type BootstrapFile } from '../bootstrap.js';
import type { Config } from '../config.js';
import { composeCore, type Core } from '../core.js';
import { bodyDepthGuard } from '../http/body-depth.js';
import { errorAnswer } from '../http/errors.js';
import type { Logger } from '../logger.js';
import { closeStores } from '../stores.js';
import { StaticWordEmbedder } from '../embeddings/static-embedder.js';

/** A line's answer when refused: the status and `{message, error_code, detail}` body the management API answers the same write with. */
export type Refused = { readonly status: number; readonly body: Record<string, unknown> };

/** Why the import cannot start (exit code 2). */
export class ImportRefused extends Error {}

/**
 * One more process on a data directory (docs/decisions/0389): the service's own composition
 * (`infra/core.ts`), no port, no reactor. It takes the projections' leases when they are free
 * (no service runs: it projects what it writes, as ROLE all would) and follows their checkpoints
 * when a running service holds them (that service projects).
 */
export type ContentImport = {
  readonly env: string;
  /** The collection's key, from its key or its path (`blog/articles`); null when neither names one in the environment. */
  collectionKey(keyOrPath: string): Promise<string | null>;
  /** Writes one NDJSON line as the management API's create (or, with `external_id`, upsert) would: null when written, else the API's refusal. */
  write(folder: string, text: string): Promise<Refused | null>;
  /** Waits until the projections (here or in the running service) hold every event written so far; false after `timeoutMs`. */
  caughtUp(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
};

/** What no write of the import reads: it has no tenancy route. */
const NO_TENANCY = new Proxy({} as TenancyContext, {
  get() {
    throw new Error('a content import writes no tenancy');
  },
});

const NOT_JSON = { message: 'The request body is not valid JSON.', error_code: 'validation_error', detail: null };

/**
 * Opens the data directory of `config` for an import into environment `env` (default: the
 * bootstrap's). The writer is the user whose management token `bootstrap.json` holds (the
 * organization's first administrator), checked as the management API checks that token.
 */
export async function openContentImport(config: Config, logger: Logger, env: string | undefined): Promise<ContentImport> {
  const file = bootstrapPath(config);
  if (!existsSync(file)) throw new ImportRefused(`no ${file}: start the service once on this data directory (DATA_DIR) first`);
  const bootstrap = JSON.parse(readFileSync(file, 'utf8')) as BootstrapFile;
  // Applies the projections where it takes their leases; keeps no cache of the read side (it serves nothing).
  const core = await composeCore(config, logger, {}, { applies: true });
  let projections: Projections | null = null;
  try {
    projections = await core.start([]);
    core.useWriteGuards();
    const { readStore } = core.stores;
    const principal = await userPrincipal(readStore, managementTokenClaims(jwtSecret(config.dataDir, config.jwtSecret), bootstrap.management_token));
    if (!principal) throw new ImportRefused(`the management token of ${file} names no active user of this data directory`);
    const target = env ?? bootstrap.environment;
    const environment = await readStore.collection('environments').get(target);
    if (!environment || environment.organization !== principal.organization) throw new ImportRefused(`no environment ${target} in organization ${principal.organization}`);
    return importInto(core, projections, principal, target);
  } catch (error) {
    await stop(core, projections);
    throw error;
  }
}

async function stop(core: Core, projections: Projections | null): Promise<void> {
  await projections?.stop();
  if (core.embedder instanceof StaticWordEmbedder) await core.embedder.close();
  await closeStores(core.stores);
}

function importInto(core: Core, projections: Projections, principal: Principal, env: string): ContentImport {
  const { readStore } = core.stores;
  const deps = { bus: core.bus, validator: core.validator, projections, readStore, waitTimeoutMs: 0, resourceQuota: core.resourceQuota, recentResources: core.recentResources };
  const create = createResourceHandler(deps);
  const upsert = upsertResourceHandler(deps);
  const context = (): ApiRequest['context'] => {
    const now = isoNow();
    const metadata: EventMetadata = { actor_type: principal.actor_type, actor: principal.actor, ip_address: null, referer: null, timestamp: now };
    return { env, metadata, now };
  };
  const request = (folder: string, query: Record<string, string>, body: unknown): ApiRequest => ({
    params: { env, collection: folder },
    query,
    body,
    header: () => undefined,
    urlWith: () => {
      throw new Error('a create or upsert answers no list links'); // an imported line has no URL of its own
    },
    principal,
    context: context(),
    tenancy: NO_TENANCY,
  });
  /** What the management pipeline does to a parsed body before its handler: the depth and number checks, then the handler; a refusal as its error answer. */
  const run = async (handler: ApiHandler, req: ApiRequest): Promise<Refused | null> => {
    try {
      let refusal: unknown = null;
      bodyDepthGuard(req, null, (error?: unknown) => (refusal = error ?? null));
      if (refusal !== null) throw refusal;
      await handler(req);
      return null;
    } catch (error) {
      const answer = errorAnswer(error, undefined, core.log);
      return { status: answer.status, body: answer.body };
    }
  };
  return {
    env,
    async collectionKey(keyOrPath) {
      const collections = readStore.collection('collections');
      const byKey = await collections.get(keyOrPath);
      if (byKey && byKey.env === env) return byKey._id;
      const dotted = keyOrPath.replace(/\//g, '.').replace(/^\.+|\.+$/g, '');
      const [byPath] = await collections.find({ env, path: dotted }, { limit: 1 });
      return byPath ? byPath._id : null;
    },
    async write(folder, text) {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return { status: 422, body: NOT_JSON };
      }
      // The line with `external_id` is the upsert's query and body (PUT ?external_id=), any other the create's body (POST).
      const externalId = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>).external_id : undefined;
      if (typeof externalId !== 'string') return run(create, request(folder, { wait: 'false' }, body));
      const { external_id: _id, ...rest } = body as Record<string, unknown>;
      return run(upsert, request(folder, { wait: 'false', external_id: externalId }, rest));
    },
    async caughtUp(timeoutMs) {
      return projections.waitFor(await core.eventStore.headPosition(), timeoutMs);
    },
    close: () => stop(core, projections),
  };
}
