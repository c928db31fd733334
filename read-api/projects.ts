import { Router } from 'express';
import { notFound } from '../domain/errors.js';
import type { ReadDeps } from './deps.js';
import { envelope, pageParams } from './pagination.js';
import { param } from '../api/query.js';
import { organizationAdmin } from '../api/tenancy-access.js';
import { environmentView } from '../api/tenancy-views.js';
import { environmentsOf, projectDoc, projectRead } from '../api/projects.js';

/** Projects (the list envelope) and their environments (a bare array, as the product answers). */
export function projectsReadRouter({ readStore }: ReadDeps): Router {
  const router = Router();

  router.get('/organizations/:org/projects/', async (req, res) => {
    const { organization } = organizationAdmin(req, res);
    const page = pageParams(req.query);
    const projects = readStore.collection('projects');
    const [count, docs] = await Promise.all([
      projects.count({ organization }),
      projects.find({ organization }, { sort: [['created_at', 1], ['key', 1]], skip: page.offset, limit: page.limit }),
    ]);
    res.json(envelope(req, page, count, await Promise.all(docs.map((doc) => projectRead(readStore, doc)))));
  });

  router.get('/organizations/:org/projects/:project/', async (req, res) => {
    const { organization } = organizationAdmin(req, res);
    res.json(await projectRead(readStore, await projectDoc(readStore, req, organization)));
  });

  router.get('/organizations/:org/projects/:project/environments/', async (req, res) => {
    const { organization } = organizationAdmin(req, res);
    const project = await projectDoc(readStore, req, organization);
    res.json((await environmentsOf(readStore, project.key as string)).map(environmentView));
  });

  router.get('/organizations/:org/projects/:project/environments/:environment/', async (req, res) => {
    const { organization } = organizationAdmin(req, res);
    const project = await projectDoc(readStore, req, organization);
    const doc = await readStore.collection('environments').get(param(req, 'environment'));
    if (!doc || doc.project !== project.key) throw notFound('environment_not_found', 'Environment');
    res.json(environmentView(doc));
  });

  return router;
}
