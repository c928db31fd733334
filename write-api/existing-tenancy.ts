import type { ExistingTenancy } from '../commands/tenancy-context.js';
import type { ReadStore } from '../projections/ports.js';

/** Existing projects and environments as the read models know them (to seed quota slots once). */
export const existingTenancy = (store: ReadStore): ExistingTenancy => ({
  projectsOf: async (organization) => (await store.collection('projects').find({ organization })).map((doc) => doc._id),
  environmentsOf: async (project) => (await store.collection('environments').find({ project })).map((doc) => doc._id),
});
