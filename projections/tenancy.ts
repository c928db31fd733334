import type { ReadModelProjection } from './read-model-target.js';
import { patch, put, remove } from './read-model-target.js';

/** Organizations, users, projects and environments. */
export const tenancyProjection: ReadModelProjection = {
  indexes: { projects: [['organization', 'created_at']], environments: [['project', 'created_at']] },
  changes: (event) => {
    switch (event.type) {
      case 'OrganizationCreated':
        return [put('organizations', event.data.key, { ...event.data, legal_name: null, tax_num: null, address: null, city: null, province: null, country_iso: null, zip_code: null })];
      case 'OrganizationUpdated':
        return [patch('organizations', event.data.key, { ...event.data })];
      case 'PlanChanged':
        return [patch('organizations', event.data.key, { plan: event.data.plan, plan_changed_at: event.data.changed_at })];
      case 'UserCreated': {
        const { first_name, last_name } = event.data;
        return [put('users', event.data.key, { ...event.data, full_name: `${first_name} ${last_name}`.trim(), deleted_at: null })];
      }
      case 'ProjectCreated': {
        const { production_environment: _production, ...data } = event.data;
        return [put('projects', event.data.key, data)];
      }
      case 'ProjectUpdated':
        return [patch('projects', event.data.key, { name: event.data.name, gdpr: event.data.gdpr })];
      case 'ProjectDeleted':
        return [remove('projects', event.data.key), ...event.data.environments.map((env) => remove('environments', env))];
      case 'EnvironmentCreated':
        return [put('environments', event.data.key, {
          ...event.data,
          has_custom_cname: false,
          is_enabled: true,
          toggled_at: null,
          protection_level: 'none',
          protected_by_user: null,
          protected_at: null,
          protection_reason: null,
        })];
      case 'EnvironmentUpdated':
        return [patch('environments', event.data.key, { name: event.data.name })];
      case 'EnvironmentToggled':
        return [patch('environments', event.data.key, { is_enabled: event.data.is_enabled, toggled_at: event.data.toggled_at })];
      case 'EnvironmentProtectionChanged': {
        const { protection_level, protection_reason, protected_by_user, protected_at } = event.data;
        return [patch('environments', event.data.key, { protection_level, protection_reason, protected_by_user, protected_at })];
      }
      case 'EnvironmentDeleted':
        return [remove('environments', event.data.key)];
      default:
        return [];
    }
  },
};
