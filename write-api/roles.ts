import { Router, type Request, type Response } from 'express';
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
import { PERMISSION_BASES } from '../read-api/permission-paths.js';
import { permissionView, roleView } from '../read-api/permission-views.js';
import { param, queryString } from '../read-api/query.js';
import { commandContext } from './context.js';
import type { WriteDeps } from './deps.js';
import { respondAfterWrite } from './respond.js';
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
export function rolesWriteRouter(deps: WriteDeps): Router {
  const router = Router({ mergeParams: true });

  const roleAnswer = (res: Response, key: string, position: string, status: number, fallback: () => unknown) =>
    respondAfterWrite(deps, res, {
      position,
      status,
      read: async () => {
        const doc = await deps.readStore.collection('roles').get(key);
        return doc ? roleView(doc) : null;
      },
      fallback,
    });

  const permissionsAnswer = (res: Response, role: string, position: string, status: number) =>
    respondAfterWrite(deps, res, {
      position,
      status,
      read: async () => (await deps.readStore.collection('role_permissions').find({ role }, { sort: [['content_type', 1]] })).map(permissionView),
      fallback: () => [],
    });

  const noContent = async (res: Response, position: string) => {
    await deps.projections.waitFor(position, deps.waitTimeoutMs);
    res.status(204).end();
  };

  const routes = (base: string, kind: KeyKind) => {
    const roles = roleBodies(kind);
    const bodies = permissionBodies(kind);
    const role = (req: Request) => param(req, 'role');

    router.post(`${base}/roles/`, async (req, res) => {
      const input = roles.create(req.body);
      const ctx = commandContext(req, res);
      const created = await createRole(deps.bus, ctx, kind, input);
      await roleAnswer(res, created.key, created.position, 201, () => roleView({ _id: created.key, key: created.key, kind, ...input, env: ctx.env, created_at: ctx.now }));
    });

    router.put(`${base}/roles/:role/`, async (req, res) => {
      const input = roles.update(req.body);
      const updated = await updateRole(deps.bus, commandContext(req, res), kind, role(req), input);
      await roleAnswer(res, role(req), updated.position, 200, () => ({ key: role(req), ...input }));
    });

    router.delete(`${base}/roles/:role/`, async (req, res) => {
      await noContent(res, (await deleteRole(deps.bus, commandContext(req, res), kind, role(req))).position);
    });

    router.post(`${base}/roles/:role/permissions/`, async (req, res) => {
      const input = bodies.one(req.body);
      const written = await setPermission(deps.bus, commandContext(req, res), kind, role(req), input);
      await respondAfterWrite(deps, res, {
        position: written.position,
        status: 201,
        read: async () => {
          const doc = (await deps.readStore.collection('role_permissions').find({ role: role(req), content_type: input.content_type }))[0];
          return doc ? permissionView(doc) : null;
        },
        fallback: () => input,
      });
    });

    router.delete(`${base}/roles/:role/permissions/`, async (req, res) => {
      const contentType = queryString(req.query, 'content_type');
      if (!contentType) throw new DomainError('validation_error', 'content_type is required.', { content_type: ['is required'] });
      await noContent(res, (await deletePermission(deps.bus, commandContext(req, res), kind, role(req), contentType)).position);
    });

    router.post(`${base}/roles/:role/permissions/batch/`, async (req, res) => {
      const input = bodies.batch(req.body);
      const written = await replacePermissions(deps.bus, commandContext(req, res), kind, role(req), input);
      await permissionsAnswer(res, role(req), written.position, 200);
    });

    router.post(`${base}/roles/:role/permissions/objects/`, async (req, res) => {
      const input = bodies.object(req.body);
      const written = await changePermissionObject(deps.bus, commandContext(req, res), kind, role(req), { add: true, ...input });
      await deps.projections.waitFor(written.position, deps.waitTimeoutMs);
      res.status(201).json(input);
    });

    router.delete(`${base}/roles/:role/permissions/objects/`, async (req, res) => {
      const input = bodies.object(req.body);
      await noContent(res, (await changePermissionObject(deps.bus, commandContext(req, res), kind, role(req), { add: false, ...input })).position);
    });
  };

  for (const { base, kind } of PERMISSION_BASES) routes(base, kind);
  return router;
}
