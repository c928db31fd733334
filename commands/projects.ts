import { environment } from '../domain/environment/decider.js';
import { DomainError, notFound } from '../domain/errors.js';
import { organization } from '../domain/organization/decider.js';
import { project } from '../domain/project/decider.js';
import type { CommandBus, Handled } from './command-bus.js';
import { newKey } from './keys.js';
import type { Position } from './ports.js';
import { streams } from './streams.js';
import type { ExistingTenancy, TenancyContext } from './tenancy-context.js';

export type ProjectInput = { readonly name: string; readonly region: string; readonly gdpr: boolean };

/** The project, if it belongs to the caller's organization; 404 project_not_found otherwise. */
export async function ownProject(bus: CommandBus, ctx: TenancyContext, key: string) {
  const { state } = await bus.load(project, streams.project(key));
  if (state.status !== 'active' || state.organization !== ctx.organization) throw notFound('project_not_found', 'Project');
  return state;
}

/**
 * A project with its production environment: the organization's projects quota takes a
 * slot first (race-free on the organization stream), then the project and the environment
 * are created. Only a slot can be left behind by a crash in between, never a half project.
 */
export async function createProject(bus: CommandBus, existing: ExistingTenancy, ctx: TenancyContext, input: ProjectInput): Promise<{ key: string; environment: string; position: Position }> {
  const key = newKey();
  const envKey = newKey(8);
  await bus.handle(organization, streams.organization(ctx.organization), async (state) => ({
    type: 'ReserveProjectSlot' as const,
    data: { organization: ctx.organization, project: key, existing: state.status === 'active' && !state.seeded ? await existing.projectsOf(ctx.organization) : null },
  }), ctx.metadata);
  await bus.handle(project, streams.project(key), {
    type: 'CreateProject',
    data: { key, organization: ctx.organization, ...input, created_at: ctx.now, production_environment: envKey },
  }, ctx.metadata);
  const created = await bus.handle(environment, streams.environment(envKey), {
    type: 'CreateEnvironment',
    data: { key: envKey, project: key, organization: ctx.organization, name: 'Production', host: '', is_production: true, created_at: ctx.now },
  }, ctx.metadata);
  return { key, environment: envKey, position: created.position };
}

export async function updateProject(bus: CommandBus, ctx: TenancyContext, key: string, changes: { name?: string; gdpr?: boolean }): Promise<Handled<unknown, unknown>> {
  await ownProject(bus, ctx, key);
  return bus.handle(project, streams.project(key), { type: 'UpdateProject', data: { key, ...changes } }, ctx.metadata);
}

/** Deletes the project (and so its environments) unless one of them is protected; frees its slot. */
export async function deleteProject(bus: CommandBus, ctx: TenancyContext, key: string): Promise<Position> {
  const state = await ownProject(bus, ctx, key);
  for (const env of state.environments) {
    const { state: envState } = await bus.load(environment, streams.environment(env));
    if (envState.status === 'active' && envState.protection_level !== 'none') {
      throw new DomainError('environment_protected', `Environment ${env} is protected (${envState.protection_level}); clear its protection first.`, {
        environment: env,
        protection_level: envState.protection_level,
      });
    }
  }
  await bus.handle(project, streams.project(key), { type: 'DeleteProject', data: { key, now: ctx.now } }, ctx.metadata);
  const released = await bus.handle(organization, streams.organization(ctx.organization), {
    type: 'ReleaseProjectSlot',
    data: { organization: ctx.organization, project: key },
  }, ctx.metadata);
  return released.position;
}
