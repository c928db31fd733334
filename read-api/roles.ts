import { get, json, type ApiRequest, type ApiRoute } from '../api/handler.js';
import type { KeyKind } from '../domain/api-keys/events.js';
import { DomainError } from '../domain/errors.js';
import type { ReadDeps } from './deps.js';
import { findDoc } from '../api/find-doc.js';
import { listPage } from './pagination.js';
import { PERMISSION_BASES } from '../api/permission-paths.js';
import { permissionView, roleView } from '../api/permission-views.js';
import { param, queryString } from '../api/query.js';

/** Management and delivery roles of an environment, their permissions and permission objects. */
export function rolesReadRoutes({ readStore }: ReadDeps): ApiRoute[] {
  const permissions = () => readStore.collection('role_permissions');
  const roleOf = (request: ApiRequest, kind: KeyKind) => findDoc(readStore, 'roles', param(request, 'role'), { env: param(request, 'env'), kind }, 'not_found', 'Role');

  return PERMISSION_BASES.flatMap(({ base, kind }): ApiRoute[] => [
    get(`${base}/roles/`, (request) => listPage(request, readStore.collection('roles'), { env: param(request, 'env'), kind }, [['created_at', 1]], roleView)),
    get(`${base}/roles/:role/`, async (request) => json(200, roleView(await roleOf(request, kind)))),
    get(`${base}/roles/:role/permissions/`, async (request) => {
      const role = await roleOf(request, kind);
      return json(200, (await permissions().find({ role: role.key as string }, { sort: [['content_type', 1]] })).map(permissionView));
    }),
    get(`${base}/roles/:role/permissions/objects/`, async (request) => {
      const role = await roleOf(request, kind);
      const contentType = queryString(request.query, 'content_type');
      if (!contentType) throw new DomainError('validation_error', 'content_type is required.', { content_type: ['is required'] });
      const docs = await permissions().find({ role: role.key as string, content_type: contentType });
      return json(200, docs.flatMap((doc) => ((doc.objects as string[] | undefined) ?? []).map((object_key) => ({ content_type: contentType, object_key }))));
    }),
  ]);
}
