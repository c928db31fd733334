import { environment } from '../domain/environment/decider.js';
import type { ProtectionLevel } from '../domain/environment/events.js';
import { notFound } from '../domain/errors.js';
import { organization } from '../domain/organization/decider.js';
import { limitsOf } from '../domain/plan.js';
import { project } from '../domain/project/decider.js';
import type { CommandBus, Handled } from './command-bus.js';
import { newKey } from './keys.js';
import type { Position } from './ports.js';
import { ownProject } from './projects.js';
import { streams } from './streams.js';
import type { ExistingTenancy, TenancyContext } from './tenancy-context.js';

type Result = Handled<unknown, unknown>;

/** The environment, if it belongs to the project of the caller's organization. */
async function ownEnvironment(bus: CommandBus, ctx: TenancyContext, projectKey: string, key: string) {
  await ownProject(bus, ctx, projectKey);
  const { state } = await bus.load(environment, streams.environment(key));
  if (state.status !== 'active' || state.project !== projectKey) throw notFound('environment_not_found', 'Environment');
  return state;
}

/**
 * A new, empty environment (its own default locale `en` and nothing else): a slot of the
 * project's environments quota first, then the environment.
 */
export async function createEnvironment(bus: CommandBus, existing: ExistingTenancy, ctx: TenancyContext, projectKey: string, name: string): Promise<{ key: string; position: Position }> {
  await ownProject(bus, ctx, projectKey);
  const { state: org } = await bus.load(organization, streams.organization(ctx.organization));
  const quota = (org.status === 'active' ? limitsOf(org.plan, org.unlimited) : limitsOf('free')).environments;
  const key = newKey(8);
  await bus.handle(project, streams.project(projectKey), async (state) => ({
    type: 'ReserveEnvironmentSlot' as const,
    data: { project: projectKey, environment: key, quota, existing: state.status === 'active' && !state.seeded ? await existing.environmentsOf(projectKey) : null },
  }), ctx.metadata);
  const created = await bus.handle(environment, streams.environment(key), {
    type: 'CreateEnvironment',
    data: { key, project: projectKey, organization: ctx.organization, name, host: '', is_production: false, created_at: ctx.now },
  }, ctx.metadata);
  return { key, position: created.position };
}

export async function updateEnvironment(bus: CommandBus, ctx: TenancyContext, projectKey: string, key: string, name: string): Promise<Result> {
  await ownEnvironment(bus, ctx, projectKey, key);
  return bus.handle(environment, streams.environment(key), { type: 'UpdateEnvironment', data: { key, name } }, ctx.metadata);
}

export async function toggleEnvironment(bus: CommandBus, ctx: TenancyContext, projectKey: string, key: string, isEnabled: boolean): Promise<Result> {
  await ownEnvironment(bus, ctx, projectKey, key);
  return bus.handle(environment, streams.environment(key), { type: 'ToggleEnvironment', data: { key, is_enabled: isEnabled, now: ctx.now } }, ctx.metadata);
}

export async function protectEnvironment(
  bus: CommandBus,
  ctx: TenancyContext,
  projectKey: string,
  key: string,
  input: { protection_level: ProtectionLevel; protection_reason: string | null },
): Promise<Result> {
  await ownEnvironment(bus, ctx, projectKey, key);
  const user = ctx.metadata.actor;
  return bus.handle(environment, streams.environment(key), { type: 'ProtectEnvironment', data: { key, ...input, user, now: ctx.now } }, ctx.metadata);
}

export async function deleteEnvironment(bus: CommandBus, ctx: TenancyContext, projectKey: string, key: string): Promise<Position> {
  await ownEnvironment(bus, ctx, projectKey, key);
  await bus.handle(environment, streams.environment(key), { type: 'DeleteEnvironment', data: { key, now: ctx.now } }, ctx.metadata);
  const released = await bus.handle(project, streams.project(projectKey), {
    type: 'ReleaseEnvironmentSlot',
    data: { project: projectKey, environment: key },
  }, ctx.metadata);
  return released.position;
}
