import { environment } from '../domain/environment/decider.js';
import { organization } from '../domain/organization/decider.js';
import type { PlanCode } from '../domain/plan.js';
import { project } from '../domain/project/decider.js';
import { user } from '../domain/user/decider.js';
import type { BootstrapProgress } from './bootstrap-progress.js';
import type { CommandBus } from './command-bus.js';
import { newKey } from './keys.js';
import type { EventMetadata, Position } from './ports.js';
import { streams } from './streams.js';

export type Bootstrapped = {
  readonly organization: string;
  readonly project: string;
  readonly environment: string;
  readonly user: { readonly key: string; readonly email: string; readonly first_name: string; readonly last_name: string };
  readonly position: Position;
};

/**
 * First start: one organization, its administrator, one project with one environment, four
 * appends. `done` is what an interrupted earlier run already appended (commands/bootstrap-progress.ts):
 * those steps are skipped and their keys reused, so a crash between appends is finished by the
 * next start instead of leaving a store that never bootstraps.
 */
/**
 * The organization is the operator's own: on Enterprise, its custom values are no quota and no
 * rate limit (docs/decisions/0348); on any other plan it has that plan's limits.
 */
export async function bootstrap(bus: CommandBus, input: { plan: PlanCode; email: string; now: string }, done: BootstrapProgress | null = null): Promise<Bootstrapped> {
  const orgKey = done?.organization ?? newKey();
  const admin = { key: done?.admin.key ?? newKey(), email: done?.admin.email ?? input.email, first_name: 'Admin', last_name: '' };
  const actor = { ...admin, full_name: 'Admin', deleted_at: null };
  const metadata: EventMetadata = { actor_type: 'user', actor, ip_address: null, referer: null, timestamp: input.now };
  const created_at = done?.created_at || input.now;
  let position: Position = '';
  if (!done) {
    await bus.handle(organization, streams.organization(orgKey), {
      type: 'CreateOrganization',
      data: { key: orgKey, name: 'Default organization', plan: input.plan, owner: admin.key, created_at, ...(input.plan === 'enterprise' ? { unlimited: true } : {}) },
    }, metadata);
  }
  if (!done?.admin.email) {
    position = (await bus.handle(user, streams.user(admin.key), {
      type: 'CreateUser',
      data: { ...admin, organization: orgKey, is_admin: true, created_at },
    }, metadata)).position;
  }
  const projectKey = done?.project ?? newKey();
  if (!done?.project) {
    position = (await bus.handle(project, streams.project(projectKey), {
      type: 'CreateProject',
      data: { key: projectKey, organization: orgKey, name: 'Default project', region: 'local', gdpr: false, created_at },
    }, metadata)).position;
  }
  const envKey = done?.environment ?? newKey(8);
  if (!done?.environment) {
    position = (await bus.handle(environment, streams.environment(envKey), {
      type: 'CreateEnvironment',
      data: { key: envKey, project: projectKey, organization: orgKey, name: 'Production', host: '', is_production: true, created_at },
    }, metadata)).position;
  }
  return { organization: orgKey, project: projectKey, environment: envKey, user: admin, position };
}
