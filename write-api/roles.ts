import { json, type ApiRequest, type ApiResult, type ApiRoute } from '../api/handler.js';
import {
  changePermissionObject,
  createRole,
  deletePermission,
  deleteRole,
  replacePermissions,
  setPermission,
  updateRole,
  type RoleInput,
} from '../commands/roles.js';
import type { KeyKind } from '../domain/api-keys/events.js';
import { DomainError } from '../domain/errors.js';
import { ACTIONS, CONTENT_TYPES } from '../domain/roles/content-types.js';
import { MAX_OBJECTS, type PermissionFields } from '../domain/roles/events.js';
import { PERMISSION_BASES } from '../api/permission-paths.js';
import { permissionView, roleView } from '../api/permission-views.js';
import { param, queryString } from '../api/query.js';
import type { WriteDeps } from './deps.js';
import { afterWrite } from './respond.js';
import { validator } from './validate.js';

const roleProperties = (kind: KeyKind) => ({
  name: { type: 'string', minLength: 1, maxLength: 255 },
  description: { type: 'string', maxLength: 255 },
  ...(kind === 'management' ? { full_access: { type: 'boolean' } } : {}),
});

const roleBodies = (kind: KeyKind) => ({
  create: validator<RoleInput>({
    type: 'object',
    properties: { ...roleProperties(kind), description: { type: 'string', maxLength: 255, default: '' }, ...(kind === 'management' ? { full_access: { type: 'boolean', default: false } } : {}) },
    required: ['name'],
    additionalProperties: false,
  }),
  update: validator<Partial<RoleInput>>({ type: 'object', properties: roleProperties(kind), additionalProperties: false }),
});

const permissionSchema = (kind: KeyKind) => ({
  type: 'object',
  properties: {
    content_type: { type: 'string', enum: [...CONTENT_TYPES[kind]] },
    actions: { type: 'array', items: { type: 'string', enum: [...ACTIONS[kind]] }, uniqueItems: true },
    all_objects: { type: 'boolean', default: true },
    objects: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 100 }, maxItems: MAX_OBJECTS, default: [] },
  },
  required: ['content_type', 'actions'],
  additionalProperties: false,
});

const permissionBodies = (kind: KeyKind) => ({
  one: validator<PermissionFields>(permissionSchema(kind)),
  batch: validator<PermissionFields[]>({ type: 'array', items: permissionSchema(kind), maxItems: 100 }),
  object: validator<{ content_type: string; object_key: string }>({
    type: 'object',
    properties: { content_type: { type: 'string', enum: [...CONTENT_TYPES[kind]] }, object_key: { type: 'string', minLength: 1, maxLength: 100 } },
    required: ['content_type', 'object_key'],
    additionalProperties: false,
  }),
});

/** Creates, updates and deletes roles; sets, replaces and removes their permissions and permission objects. */
export function rolesWriteRoutes(deps: WriteDeps): ApiRoute[] {
  const routes: ApiRoute[] = [];

  const roleAnswer = (key: string, position: string, status: number, fallback: () => unknown) =>
    afterWrite(deps, {
      position,
      status,
      read: async () => {
        const doc = await deps.readStore.collection('roles').get(key);
        return doc ? roleView(doc) : null;
      },
      fallback,
    });

  const permissionsAnswer = (role: string, position: string, status: number) =>
    afterWrite(deps, {
      position,
      status,
      read: async () => (await deps.readStore.collection('role_permissions').find({ role }, { sort: [['content_type', 1]] })).map(permissionView),
      fallback: () => [],
    });

  const noContent = async (position: string): Promise<ApiResult> => {
    await deps.projections.waitFor(position, deps.waitTimeoutMs);
    return { status: 204 };
  };

  const roleRoutes = (base: string, kind: KeyKind) => {
    const roles = roleBodies(kind);
    const bodies = permissionBodies(kind);
    const role = (request: ApiRequest) => param(request, 'role');

    routes.push({ method: 'post', path: `${base}/roles/`, handler: async (request) => {
      const input = roles.create(request.body);
      const ctx = request.context;
      const created = await createRole(deps.bus, ctx, kind, input);
      return roleAnswer(created.key, created.position, 201, () => roleView({ _id: created.key, key: created.key, kind, ...input, env: ctx.env, created_at: ctx.now }));
    } });

    routes.push({ method: 'put', path: `${base}/roles/:role/`, handler: async (request) => {
      const input = roles.update(request.body);
      const updated = await updateRole(deps.bus, request.context, kind, role(request), input);
      return roleAnswer(role(request), updated.position, 200, () => ({ key: role(request), ...input }));
    } });

    routes.push({ method: 'delete', path: `${base}/roles/:role/`, handler: async (request) => {
      return noContent((await deleteRole(deps.bus, request.context, kind, role(request))).position);
    } });

    routes.push({ method: 'post', path: `${base}/roles/:role/permissions/`, handler: async (request) => {
      const input = bodies.one(request.body);
      const written = await setPermission(deps.bus, request.context, kind, role(request), input);
      return afterWrite(deps, {
        position: written.position,
        status: 201,
        read: async () => {
          const doc = (await deps.readStore.collection('role_permissions').find({ role: role(request), content_type: input.content_type }))[0];
          return doc ? permissionView(doc) : null;
        },
        fallback: () => input,
      });
    } });

    routes.push({ method: 'delete', path: `${base}/roles/:role/permissions/`, handler: async (request) => {
      const contentType = queryString(request.query, 'content_type');
      if (!contentType) throw new DomainError('validation_error', 'content_type is required.', { content_type: ['is required'] });
      return noContent((await deletePermission(deps.bus, request.context, kind, role(request), contentType)).position);
    } });

    routes.push({ method: 'post', path: `${base}/roles/:role/permissions/batch/`, handler: async (request) => {
      const input = bodies.batch(request.body);
      const written = await replacePermissions(deps.bus, request.context, kind, role(request), input);
      return permissionsAnswer(role(request), written.position, 200);
    } });

    routes.push({ method: 'post', path: `${base}/roles/:role/permissions/objects/`, handler: async (request) => {
      const input = bodies.object(request.body);
      const written = await changePermissionObject(deps.bus, request.context, kind, role(request), { add: true, ...input });
      await deps.projections.waitFor(written.position, deps.waitTimeoutMs);
      return json(201, input);
    } });

    routes.push({ method: 'delete', path: `${base}/roles/:role/permissions/objects/`, handler: async (request) => {
      const input = bodies.object(request.body);
      return noContent((await changePermissionObject(deps.bus, request.context, kind, role(request), { add: false, ...input })).position);
    } });
  };

  for (const { base, kind } of PERMISSION_BASES) roleRoutes(base, kind);
  return routes;
}
