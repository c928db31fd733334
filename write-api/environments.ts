import type { ApiRoute } from '../api/handler.js';
import { createEnvironment, deleteEnvironment, protectEnvironment, toggleEnvironment, updateEnvironment } from '../commands/environments.js';
import type { Position } from '../commands/ports.js';
import { PROTECTION_LEVELS, type ProtectionLevel } from '../domain/environment/events.js';
import { param } from '../api/query.js';
import { environmentView } from '../api/tenancy-views.js';
import type { WriteDeps } from './deps.js';
import { afterWrite } from './respond.js';
import { existingTenancy } from './existing-tenancy.js';
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
export function environmentsWriteRoutes(deps: WriteDeps): ApiRoute[] {
  const routes: ApiRoute[] = [];
  const existing = existingTenancy(deps.readStore);
  const answer = (key: string, position: Position, status: number) =>
    afterWrite(deps, {
      position,
      status,
      read: async () => {
        const doc = await deps.readStore.collection('environments').get(key);
        return doc ? environmentView(doc) : null;
      },
      fallback: () => ({ key }),
    });

  routes.push({ method: 'post', path: `${BASE}/`, handler: async (request) => {
    const ctx = request.tenancy;
    const { name: envName } = nameBody(request.body);
    const created = await createEnvironment(deps.bus, existing, ctx, param(request, 'project'), envName);
    return answer(created.key, created.position, 201);
  } });

  routes.push({ method: 'put', path: `${BASE}/:environment/`, handler: async (request) => {
    const ctx = request.tenancy;
    const { name: envName } = nameBody(request.body);
    const key = param(request, 'environment');
    return answer(key, (await updateEnvironment(deps.bus, ctx, param(request, 'project'), key, envName)).position, 200);
  } });

  routes.push({ method: 'post', path: `${BASE}/:environment/toggle/`, handler: async (request) => {
    const ctx = request.tenancy;
    const { is_enabled } = toggleBody(request.body);
    const key = param(request, 'environment');
    return answer(key, (await toggleEnvironment(deps.bus, ctx, param(request, 'project'), key, is_enabled)).position, 200);
  } });

  routes.push({ method: 'patch', path: `${BASE}/:environment/protection/`, handler: async (request) => {
    const ctx = request.tenancy;
    const input = protectionBody(request.body);
    const key = param(request, 'environment');
    return answer(key, (await protectEnvironment(deps.bus, ctx, param(request, 'project'), key, input)).position, 200);
  } });

  routes.push({ method: 'delete', path: `${BASE}/:environment/`, handler: async (request) => {
    const position = await deleteEnvironment(deps.bus, request.tenancy, param(request, 'project'), param(request, 'environment'));
    await deps.projections.waitFor(position, deps.waitTimeoutMs);
    return { status: 204 };
  } });

  return routes;
}
