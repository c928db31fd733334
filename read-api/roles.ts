import { Router, type Request } from 'express';
import type { KeyKind } from '../domain/api-keys/events.js';
import { DomainError, notFound } from '../domain/errors.js';
import type { Doc } from '../projections/ports.js';
import type { ReadDeps } from './deps.js';
import { envelope, pageParams } from './pagination.js';
import { PERMISSION_BASES } from '../api/permission-paths.js';
import { permissionView, roleView } from '../api/permission-views.js';
import { param, queryString } from '../api/query.js';

/** Management and delivery roles of an environment, their permissions and permission objects. */
export function rolesReadRouter({ readStore }: ReadDeps): Router {
  const router = Router({ mergeParams: true });
  const roles = () => readStore.collection('roles');
  const permissions = () => readStore.collection('role_permissions');

  const roleOf = async (req: Request, kind: KeyKind): Promise<Doc> => {
    const doc = await roles().get(param(req, 'role'));
    if (!doc || doc.env !== param(req, 'env') || doc.kind !== kind) throw notFound('not_found', 'Role');
    return doc;
  };

  for (const { base, kind } of PERMISSION_BASES) {
    router.get(`${base}/roles/`, async (req, res) => {
      const page = pageParams(req.query);
      const filter = { env: param(req, 'env'), kind };
      const [count, docs] = await Promise.all([roles().count(filter), roles().find(filter, { sort: [['created_at', 1]], skip: page.offset, limit: page.limit })]);
      res.json(envelope(req, page, count, docs.map(roleView)));
    });

    router.get(`${base}/roles/:role/`, async (req, res) => {
      res.json(roleView(await roleOf(req, kind)));
    });

    router.get(`${base}/roles/:role/permissions/`, async (req, res) => {
      const role = await roleOf(req, kind);
      const docs = await permissions().find({ role: role.key as string }, { sort: [['content_type', 1]] });
      res.json(docs.map(permissionView));
    });

    router.get(`${base}/roles/:role/permissions/objects/`, async (req, res) => {
      const role = await roleOf(req, kind);
      const contentType = queryString(req.query, 'content_type');
      if (!contentType) throw new DomainError('validation_error', 'content_type is required.', { content_type: ['is required'] });
      const docs = await permissions().find({ role: role.key as string, content_type: contentType });
      res.json(docs.flatMap((doc) => ((doc.objects as string[] | undefined) ?? []).map((object_key) => ({ content_type: contentType, object_key }))));
    });
  }

  return router;
}
