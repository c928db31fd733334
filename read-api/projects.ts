import { get, json, type ApiRequest, type ApiRoute } from '../api/handler.js';
import type { ReadDeps } from './deps.js';
import { findDoc } from '../api/find-doc.js';
import { listPage } from './pagination.js';
import { param } from '../api/query.js';
import { organizationAdmin } from '../api/tenancy-access.js';
import { environmentView } from '../api/tenancy-views.js';
import { environmentsOf, projectDoc, projectRead } from '../api/projects.js';

/** Projects (the list envelope) and their environments (a bare array, as the product answers). */
export function projectsReadRoutes({ readStore }: ReadDeps): ApiRoute[] {
  const project = (request: ApiRequest) => projectDoc(readStore, request, organizationAdmin(request).organization);
  return [
    get('/organizations/:org/projects/', async (request) => {
      const { organization } = organizationAdmin(request);
      return listPage(request, readStore.collection('projects'), { organization }, [['created_at', 1], ['key', 1]], (doc) => projectRead(readStore, doc));
    }),
    get('/organizations/:org/projects/:project/', async (request) => json(200, await projectRead(readStore, await project(request)))),
    get('/organizations/:org/projects/:project/environments/', async (request) => json(200, (await environmentsOf(readStore, (await project(request)).key as string)).map(environmentView))),
    get('/organizations/:org/projects/:project/environments/:environment/', async (request) => {
      const { key } = await project(request);
      return json(200, environmentView(await findDoc(readStore, 'environments', param(request, 'environment'), { project: key }, 'environment_not_found', 'Environment')));
    }),
  ];
}
