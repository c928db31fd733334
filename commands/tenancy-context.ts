import type { EventMetadata } from './ports.js';

/** Who sends an organization-level command (projects, environments, plan), for which organization, and when. */
export type TenancyContext = {
  readonly organization: string;
  readonly metadata: EventMetadata;
  readonly now: string;
};

/**
 * What the read side knows of existing projects and environments: read once per organization
 * or project, to seed quota slots for entities created before slots were counted (the bootstrap ones).
 */
export type ExistingTenancy = {
  projectsOf(organization: string): Promise<string[]>;
  environmentsOf(project: string): Promise<string[]>;
};
