import type { StoredEvent } from './ports.js';

/** How far a first-start bootstrap got: the keys of what it created, in its order. */
export type BootstrapProgress = {
  readonly organization: string;
  readonly admin: { readonly key: string; readonly email: string | null };
  readonly project: string | null;
  readonly environment: string | null;
  readonly created_at: string;
};

type Data = Record<string, unknown>;
const text = (data: Data, field: string): string | null => (typeof data[field] === 'string' ? (data[field] as string) : null);

/**
 * Reads a bootstrap from the first events of the store: the organization (first event), its
 * owner, the organization's first project and that project's first environment. Null when the
 * store does not start with an organization (nothing this service bootstrapped).
 */
export function bootstrapProgress(events: readonly StoredEvent[]): BootstrapProgress | null {
  const first = events[0];
  if (!first || first.type !== 'OrganizationCreated') return null;
  const org = first.data as Data;
  const organization = text(org, 'key');
  const owner = text(org, 'owner');
  if (!organization || !owner) return null;
  const data = (type: string, match: (d: Data) => boolean): Data | null =>
    (events.find((e) => e.type === type && match(e.data as Data))?.data as Data | undefined) ?? null;
  const user = data('UserCreated', (d) => d.key === owner);
  const project = data('ProjectCreated', (d) => d.organization === organization);
  const projectKey = project ? text(project, 'key') : null;
  const environment = projectKey ? data('EnvironmentCreated', (d) => d.project === projectKey) : null;
  return {
    organization,
    admin: { key: owner, email: user ? text(user, 'email') : null },
    project: projectKey,
    environment: environment ? text(environment, 'key') : null,
    created_at: text(org, 'created_at') ?? '',
  };
}
