import type { Message } from '../decider.js';

/** Events of one project (stream `project-{key}`); its environment slots live here too. */

export type ProjectCreated = Message<
  'ProjectCreated',
  {
    key: string;
    organization: string;
    name: string;
    region: string;
    gdpr: boolean;
    created_at: string;
    /** The key of the production environment created with the project (counted from the start). */
    production_environment?: string;
  }
>;
export type ProjectUpdated = Message<'ProjectUpdated', { key: string; organization: string; name: string; gdpr: boolean }>;
export type ProjectSnapshot = { name: string; gdpr: boolean; customer_key: string; region_key: string; region_code: string; region_name: string };
export type ProjectDeleted = Message<
  'ProjectDeleted',
  { key: string; organization: string; environments: readonly string[]; deleted_at: string; snapshot: ProjectSnapshot }
>;
/** An environment slot of the project's environments quota, taken before the environment is created. */
export type EnvironmentSlotReserved = Message<'EnvironmentSlotReserved', { project: string; environment: string }>;
/** The environments that existed before slots were counted (the bootstrap environment), taken once. */
export type EnvironmentSlotsSeeded = Message<'EnvironmentSlotsSeeded', { project: string; environments: readonly string[] }>;
export type EnvironmentSlotReleased = Message<'EnvironmentSlotReleased', { project: string; environment: string }>;

export type ProjectEvent = ProjectCreated | ProjectUpdated | ProjectDeleted | EnvironmentSlotsSeeded | EnvironmentSlotReserved | EnvironmentSlotReleased;
