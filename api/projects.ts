import { findDoc } from './find-doc.js';
import type { Doc, ReadStore } from '../projections/ports.js';
import { param } from './query.js';
import { projectView } from './tenancy-views.js';

export const environmentsOf = (store: ReadStore, project: string): Promise<Doc[]> =>
  store.collection('environments').find({ project }, { sort: [['created_at', 1], ['key', 1]] });

/** The project named in the path, if the organization owns it. */
export const projectDoc = (store: ReadStore, req: { readonly params: unknown }, organization: string, name = 'project'): Promise<Doc> =>
  findDoc(store, 'projects', param(req, name), { organization }, 'project_not_found', 'Project');

export async function projectRead(store: ReadStore, doc: Doc) {
  return projectView(doc, await environmentsOf(store, doc.key as string));
}
