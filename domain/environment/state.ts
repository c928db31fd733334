import type { EnvironmentEvent, ProtectionLevel } from './events.js';

export type ActiveEnvironment = {
  readonly status: 'active';
  readonly key: string;
  readonly project: string;
  readonly organization: string;
  readonly name: string;
  readonly host: string;
  readonly is_production: boolean;
  readonly is_enabled: boolean;
  readonly toggled_at: string | null;
  readonly protection_level: ProtectionLevel;
  readonly protected_by: string | null;
};

export type EnvironmentState = { readonly status: 'none' } | ActiveEnvironment | { readonly status: 'deleted'; readonly key: string };

export function evolveEnvironment(state: EnvironmentState, event: EnvironmentEvent): EnvironmentState {
  if (event.type === 'EnvironmentCreated') {
    const { key, project, organization, name, host, is_production } = event.data;
    return { status: 'active', key, project, organization, name, host, is_production, is_enabled: true, toggled_at: null, protection_level: 'none', protected_by: null };
  }
  if (state.status !== 'active') return state;
  switch (event.type) {
    case 'EnvironmentUpdated':
      return { ...state, name: event.data.name };
    case 'EnvironmentToggled':
      return { ...state, is_enabled: event.data.is_enabled, toggled_at: event.data.toggled_at };
    case 'EnvironmentProtectionChanged': {
      const by = event.data.protected_by_user?.key;
      return { ...state, protection_level: event.data.protection_level, protected_by: typeof by === 'string' ? by : null };
    }
    case 'EnvironmentDeleted':
      return { status: 'deleted', key: state.key };
  }
}
