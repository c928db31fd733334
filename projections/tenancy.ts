import type { ReadModelProjection } from './read-model-target.js';
import { put } from './read-model-target.js';

/** Organizations, users, projects and environments. */
export const tenancyProjection: ReadModelProjection = {
  changes: (event) => {
    switch (event.type) {
      case 'OrganizationCreated':
        return [put('organizations', event.data.key, { ...event.data })];
      case 'UserCreated': {
        const { first_name, last_name } = event.data;
        return [put('users', event.data.key, { ...event.data, full_name: `${first_name} ${last_name}`.trim(), deleted_at: null })];
      }
      case 'ProjectCreated':
        return [put('projects', event.data.key, { ...event.data })];
      case 'EnvironmentCreated':
        return [put('environments', event.data.key, { ...event.data, is_enabled: true })];
      default:
        return [];
    }
  },
};
