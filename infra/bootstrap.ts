import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bootstrapProgress } from '../commands/bootstrap-progress.js';
import type { CommandBus } from '../commands/command-bus.js';
import type { EventStore } from '../commands/ports.js';
import { bootstrap, type Bootstrapped } from '../commands/tenancy.js';
import type { Projections } from '../projections/runner.js';
import { signManagementToken } from './auth/management-auth.js';
import type { Config } from './config.js';

export type BootstrapFile = {
  readonly organization: string;
  readonly project: string;
  readonly environment: string;
  readonly management_token: string;
  readonly base_url: string;
  readonly delivery_url: string;
};

export const bootstrapPath = (config: Config): string => join(config.dataDir, 'bootstrap.json');

/** How many events from the start of the store a bootstrap can have written (it writes four). */
const BOOTSTRAP_EVENTS = 50;

/** What a start found or made before the ports listen: the saved file, the tenancy just created, or neither (events of another bootstrap, no file). */
export type BootstrapState = { readonly file: BootstrapFile } | { readonly made: Bootstrapped } | null;

/**
 * On first start (no events yet) creates the organization, project, environment and
 * administrator, and waits for the read side to have them; a restart finds `bootstrap.json`. A
 * start that finds events but no `bootstrap.json` finishes the bootstrap those events began (a
 * crash between its appends, or before the file was written), reusing its keys
 * (docs/decisions/0081). The service runs it before either port listens (0347).
 */
export async function prepareBootstrap(config: Config, deps: { bus: CommandBus; eventStore: EventStore; projections: Projections }): Promise<BootstrapState> {
  const path = bootstrapPath(config);
  const empty = (await deps.eventStore.headPosition()) === '';
  if (!empty && existsSync(path)) return { file: JSON.parse(readFileSync(path, 'utf8')) as BootstrapFile };
  const done = empty ? null : bootstrapProgress(await deps.eventStore.readAll('', BOOTSTRAP_EVENTS));
  if (!empty && !done) return null;
  const made = await bootstrap(deps.bus, { plan: config.plan, email: config.adminEmail, now: new Date().toISOString() }, done);
  await deps.projections.waitFor(made.position, 30_000);
  return { made };
}

/** Writes `bootstrap.json` (mode 0600) for what `prepareBootstrap` made: aside and renamed, so a crash leaves either no file or a whole one. */
export function writeBootstrap(config: Config, made: Bootstrapped, jwtSecret: string, urls: { base: string; delivery: string }): BootstrapFile {
  const path = bootstrapPath(config);
  const file: BootstrapFile = {
    organization: made.organization,
    project: made.project,
    environment: made.environment,
    management_token: signManagementToken(jwtSecret, { sub: made.user.key, org: made.organization }),
    base_url: urls.base,
    delivery_url: `${urls.delivery}/${made.environment}`,
  };
  writeFileSync(`${path}.tmp`, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
  return file;
}
