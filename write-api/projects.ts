import type { ApiRoute } from '../api/handler.js';
import { createProject, deleteProject, updateProject } from '../commands/projects.js';
import { DomainError } from '../domain/errors.js';
import { REGIONS, regionOf } from '../domain/regions.js';
import { projectDoc, projectRead } from '../api/projects.js';
import { param } from '../api/query.js';
import type { WriteDeps } from './deps.js';
import { afterWrite } from './respond.js';
import { existingTenancy } from './existing-tenancy.js';
import { validator } from './validate.js';

type ProjectBody = { name: string; region: string; gdpr: boolean };

const name = { type: 'string', minLength: 1, maxLength: 255 };
/** A region is a code of `GET /regions/` or one of its objects, as the product's client sends either. */
const region = { anyOf: [{ type: 'string' }, { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] }] };

const createBody = validator<ProjectBody>({
  type: 'object',
  properties: { name, region: { ...region, default: REGIONS[0]?.code }, gdpr: { type: 'boolean', default: false } },
  required: ['name'],
  additionalProperties: false,
});
const updateBody = validator<Partial<ProjectBody>>({
  type: 'object',
  properties: { name, region, gdpr: { type: 'boolean' } },
  additionalProperties: false,
});

const regionCode = (value: unknown): string => (typeof value === 'string' ? value : String((value as { code: string }).code));

/** Projects: create (with their production environment, under the plan's projects quota), PUT, DELETE. */
export function projectsWriteRoutes(deps: WriteDeps): ApiRoute[] {
  const routes: ApiRoute[] = [];
  const existing = existingTenancy(deps.readStore);

  routes.push({ method: 'post', path: '/organizations/:org/projects/', handler: async (request) => {
    const ctx = request.tenancy;
    const body = createBody(request.body);
    const code = regionCode(body.region);
    if (!regionOf(code)) throw new DomainError('validation_error', `Unknown region ${code}.`, { region: [`must be one of ${REGIONS.map((r) => r.code).join(', ')}`] });
    const created = await createProject(deps.bus, existing, ctx, { name: body.name, gdpr: body.gdpr, region: code });
    return afterWrite(deps, {
      position: created.position,
      status: 201,
      read: async () => {
        const doc = await deps.readStore.collection('projects').get(created.key);
        return doc ? projectRead(deps.readStore, doc) : null;
      },
      fallback: () => ({ key: created.key, name: body.name, organization: ctx.organization, environments: [{ key: created.environment }] }),
    });
  } });

  routes.push({ method: 'put', path: '/organizations/:org/projects/:project/', handler: async (request) => {
    const ctx = request.tenancy;
    const { region: sent, ...changes } = updateBody(request.body);
    const current = await projectDoc(deps.readStore, request, ctx.organization);
    if (sent !== undefined && regionCode(sent) !== current.region) {
      throw new DomainError('validation_error', 'The region of a project is chosen at creation and cannot change.', { region: ['cannot be changed'] });
    }
    const key = param(request, 'project');
    const written = await updateProject(deps.bus, ctx, key, changes);
    return afterWrite(deps, {
      position: written.position,
      status: 200,
      read: async () => {
        const doc = await deps.readStore.collection('projects').get(key);
        return doc ? projectRead(deps.readStore, doc) : null;
      },
      fallback: () => ({ key }),
    });
  } });

  routes.push({ method: 'delete', path: '/organizations/:org/projects/:project/', handler: async (request) => {
    const position = await deleteProject(deps.bus, request.tenancy, param(request, 'project'));
    await deps.projections.waitFor(position, deps.waitTimeoutMs);
    return { status: 204 };
  } });

  return routes;
}
