import { Router } from 'express';
import { createProject, deleteProject, updateProject } from '../commands/projects.js';
import { DomainError } from '../domain/errors.js';
import { REGIONS, regionOf } from '../domain/regions.js';
import { projectDoc, projectRead } from '../read-api/projects.js';
import { param } from '../read-api/query.js';
import type { WriteDeps } from './deps.js';
import { respondAfterWrite } from './respond.js';
import { existingTenancy, tenancyContext } from './tenancy-context.js';
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
export function projectsWriteRouter(deps: WriteDeps): Router {
  const router = Router();
  const existing = existingTenancy(deps.readStore);

  router.post('/organizations/:org/projects/', async (req, res) => {
    const ctx = tenancyContext(req, res);
    const body = createBody(req.body);
    const code = regionCode(body.region);
    if (!regionOf(code)) throw new DomainError('validation_error', `Unknown region ${code}.`, { region: [`must be one of ${REGIONS.map((r) => r.code).join(', ')}`] });
    const created = await createProject(deps.bus, existing, ctx, { name: body.name, gdpr: body.gdpr, region: code });
    await respondAfterWrite(deps, res, {
      position: created.position,
      status: 201,
      read: async () => {
        const doc = await deps.readStore.collection('projects').get(created.key);
        return doc ? projectRead(deps.readStore, doc) : null;
      },
      fallback: () => ({ key: created.key, name: body.name, organization: ctx.organization, environments: [{ key: created.environment }] }),
    });
  });

  router.put('/organizations/:org/projects/:project/', async (req, res) => {
    const ctx = tenancyContext(req, res);
    const { region: sent, ...changes } = updateBody(req.body);
    const current = await projectDoc(deps.readStore, req, ctx.organization);
    if (sent !== undefined && regionCode(sent) !== current.region) {
      throw new DomainError('validation_error', 'The region of a project is chosen at creation and cannot change.', { region: ['cannot be changed'] });
    }
    const key = param(req, 'project');
    const written = await updateProject(deps.bus, ctx, key, changes);
    await respondAfterWrite(deps, res, {
      position: written.position,
      status: 200,
      read: async () => {
        const doc = await deps.readStore.collection('projects').get(key);
        return doc ? projectRead(deps.readStore, doc) : null;
      },
      fallback: () => ({ key }),
    });
  });

  router.delete('/organizations/:org/projects/:project/', async (req, res) => {
    const position = await deleteProject(deps.bus, tenancyContext(req, res), param(req, 'project'));
    await deps.projections.waitFor(position, deps.waitTimeoutMs);
    res.status(204).end();
  });

  return router;
}
