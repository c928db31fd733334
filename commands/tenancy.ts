import { environment } from '../domain/environment/decider.js';
import { organization } from '../domain/organization/decider.js';
import type { PlanCode } from '../domain/plan.js';
import { project } from '../domain/project/decider.js';
import { user } from '../domain/user/decider.js';
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

/** First start: one organization, its administrator, one project with one environment. */
export async function bootstrap(bus: CommandBus, input: { plan: PlanCode; email: string; now: string }): Promise<Bootstrapped> {
  const orgKey = newKey();
  const admin = { key: newKey(), email: input.email, first_name: 'Admin', last_name: '' };
  const actor = { ...admin, full_name: 'Admin', deleted_at: null };
  const metadata: EventMetadata = { actor_type: 'user', actor, ip_address: null, referer: null, timestamp: input.now };
  const created_at = input.now;
  await bus.handle(organization, streams.organization(orgKey), {
    type: 'CreateOrganization',
    data: { key: orgKey, name: 'Default organization', plan: input.plan, owner: admin.key, created_at },
  }, metadata);
  await bus.handle(user, streams.user(admin.key), {
    type: 'CreateUser',
    data: { ...admin, organization: orgKey, is_admin: true, created_at },
  }, metadata);
  const projectKey = newKey();
  await bus.handle(project, streams.project(projectKey), {
    type: 'CreateProject',
    data: { key: projectKey, organization: orgKey, name: 'Default project', region: 'local', gdpr: false, created_at },
  }, metadata);
  const envKey = newKey(8);
  const done = await bus.handle(environment, streams.environment(envKey), {
    type: 'CreateEnvironment',
    data: { key: envKey, project: projectKey, organization: orgKey, name: 'Production', host: '', is_production: true, created_at },
  }, metadata);
  return { organization: orgKey, project: projectKey, environment: envKey, user: admin, position: done.position };
}
