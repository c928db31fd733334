import { expect } from 'chai';
import { organization } from '../../domain/organization/decider.js';
import type { OrganizationEvent } from '../../domain/organization/events.js';
import { project } from '../../domain/project/decider.js';
import type { ProjectEvent } from '../../domain/project/events.js';
import { deciderSpec } from '../support/decider-spec.js';

const at = '2026-01-01T00:00:00.000Z';
const orgCreated: OrganizationEvent = { type: 'OrganizationCreated', data: { key: 'o', name: 'O', plan: 'free', owner: 'u', created_at: at } };
const reserve = (p: string, existing: readonly string[] | null = null) => ({ type: 'ReserveProjectSlot', data: { organization: 'o', project: p, existing } }) as const;

describe('organization decider: plan and projects quota', () => {
  const spec = deciderSpec(organization);

  it('seeds the slots once from the projects that exist, then counts them against the plan', () => {
    spec.given([orgCreated]).when(reserve('p2', ['p1'])).thenThrows('plan_limit_exceeded', { entity: 'projects', current: 1, limit: 1 });
    spec.given([orgCreated]).when(reserve('p1', [])).then([
      { type: 'ProjectSlotsSeeded', data: { organization: 'o', projects: [] } },
      { type: 'ProjectSlotReserved', data: { organization: 'o', project: 'p1' } },
    ]);
  });

  it('counts against the plan switched to, and frees a released slot', () => {
    const seeded: OrganizationEvent[] = [orgCreated, { type: 'ProjectSlotsSeeded', data: { organization: 'o', projects: ['p1'] } }];
    const starter: OrganizationEvent = { type: 'PlanChanged', data: { key: 'o', plan: 'starter', previous: 'free', changed_at: at } };
    spec.given([...seeded, starter]).when(reserve('p2')).then([{ type: 'ProjectSlotReserved', data: { organization: 'o', project: 'p2' } }]);
    const released: OrganizationEvent = { type: 'ProjectSlotReleased', data: { organization: 'o', project: 'p1' } };
    spec.given([...seeded, released]).when(reserve('p2')).then([{ type: 'ProjectSlotReserved', data: { organization: 'o', project: 'p2' } }]);
  });

  it('switching to the current plan changes nothing', () => {
    spec.given([orgCreated]).when({ type: 'ChangePlan', data: { key: 'o', plan: 'free', now: at } }).then([]);
  });
});

describe('project decider: environments quota', () => {
  const spec = deciderSpec(project);
  const created = (production?: string): ProjectEvent => ({
    type: 'ProjectCreated',
    data: { key: 'p', organization: 'o', name: 'P', region: 'local', gdpr: false, created_at: at, ...(production ? { production_environment: production } : {}) },
  });
  const reserveEnv = (env: string, quota: number, existing: readonly string[] | null = null) =>
    ({ type: 'ReserveEnvironmentSlot', data: { project: 'p', environment: env, quota, existing } }) as const;

  it('counts the production environment from the start', () => {
    spec.given([created('prod')]).when(reserveEnv('e2', 1)).thenThrows('plan_limit_exceeded', { entity: 'environments', current: 1, limit: 1 });
    spec.given([created('prod')]).when(reserveEnv('e2', 2)).then([{ type: 'EnvironmentSlotReserved', data: { project: 'p', environment: 'e2' } }]);
  });

  it('seeds a project created before slots were counted from the environments that exist', () => {
    spec.given([created()]).when(reserveEnv('e2', 1, ['prod'])).thenThrows('plan_limit_exceeded', { current: 1, limit: 1 });
  });

  it('answers project_not_found for a project that does not exist', () => {
    expect(() => project.decide({ type: 'DeleteProject', data: { key: 'nope', now: at } }, project.initialState())).to.throw('Project not found.');
  });
});
