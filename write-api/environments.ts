import { Router, type Response } from 'express';
import { createEnvironment, deleteEnvironment, protectEnvironment, toggleEnvironment, updateEnvironment } from '../commands/environments.js';
import type { Position } from '../commands/ports.js';
import { PROTECTION_LEVELS, type ProtectionLevel } from '../domain/environment/events.js';
import { param } from '../read-api/query.js';
import { environmentView } from '../read-api/tenancy-views.js';
import type { WriteDeps } from './deps.js';
import { respondAfterWrite } from './respond.js';
import { existingTenancy, tenancyContext } from './tenancy-context.js';
import { validator } from './validate.js';

const name = { type: 'string', minLength: 1, maxLength: 255 };
const nameBody = validator<{ name: string }>({ type: 'object', properties: { name }, required: ['name'], additionalProperties: false });
const toggleBody = validator<{ is_enabled: boolean }>({
  type: 'object',
  properties: { is_enabled: { type: 'boolean' } },
  required: ['is_enabled'],
  additionalProperties: false,
});
const protectionBody = validator<{ protection_level: ProtectionLevel; protection_reason: string | null }>({
  type: 'object',
  properties: {
    protection_level: { type: 'string', enum: [...PROTECTION_LEVELS] },
    protection_reason: { type: ['string', 'null'], maxLength: 500, default: null },
  },
  required: ['protection_level'],
  additionalProperties: false,
});

const BASE = '/organizations/:org/projects/:project/environments';

/** Environments: create (empty, under the plan's quota), PUT, DELETE, toggle and protection. */
export function environmentsWriteRouter(deps: WriteDeps): Router {
  const router = Router();
  const existing = existingTenancy(deps.readStore);
  const answer = (res: Response, key: string, position: Position, status: number) =>
    respondAfterWrite(deps, res, {
      position,
      status,
      read: async () => {
        const doc = await deps.readStore.collection('environments').get(key);
        return doc ? environmentView(doc) : null;
      },
      fallback: () => ({ key }),
    });

  router.post(`${BASE}/`, async (req, res) => {
    const ctx = tenancyContext(req, res);
    const { name: envName } = nameBody(req.body);
    const created = await createEnvironment(deps.bus, existing, ctx, param(req, 'project'), envName);
    await answer(res, created.key, created.position, 201);
  });

  router.put(`${BASE}/:environment/`, async (req, res) => {
    const ctx = tenancyContext(req, res);
    const { name: envName } = nameBody(req.body);
    const key = param(req, 'environment');
    await answer(res, key, (await updateEnvironment(deps.bus, ctx, param(req, 'project'), key, envName)).position, 200);
  });

  router.post(`${BASE}/:environment/toggle/`, async (req, res) => {
    const ctx = tenancyContext(req, res);
    const { is_enabled } = toggleBody(req.body);
    const key = param(req, 'environment');
    await answer(res, key, (await toggleEnvironment(deps.bus, ctx, param(req, 'project'), key, is_enabled)).position, 200);
  });

  router.patch(`${BASE}/:environment/protection/`, async (req, res) => {
    const ctx = tenancyContext(req, res);
    const input = protectionBody(req.body);
    const key = param(req, 'environment');
    await answer(res, key, (await protectEnvironment(deps.bus, ctx, param(req, 'project'), key, input)).position, 200);
  });

  router.delete(`${BASE}/:environment/`, async (req, res) => {
    const position = await deleteEnvironment(deps.bus, tenancyContext(req, res), param(req, 'project'), param(req, 'environment'));
    await deps.projections.waitFor(position, deps.waitTimeoutMs);
    res.status(204).end();
  });

  return router;
}
