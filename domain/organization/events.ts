import type { Message } from '../decider.js';
import type { PlanCode } from '../plan.js';

/** Events of one organization (stream `organization-{key}`); its project slots live here too. */

/** The organization's editable billing details (`PUT /organizations/{org}/`). */
export type OrganizationDetails = {
  name: string;
  legal_name: string | null;
  tax_num: string | null;
  address: string | null;
  city: string | null;
  province: string | null;
  country_iso: string | null;
  zip_code: string | null;
};

/**
 * `unlimited`: on the Enterprise plan, whose quotas the specification leaves custom, the custom values
 * are "none": no quota and no rate limit. Only the organization a self-hosted installation creates
 * at first start has it (docs/decisions/0348).
 */
export type OrganizationCreated = Message<'OrganizationCreated', { key: string; name: string; plan: PlanCode; owner: string; created_at: string; unlimited?: boolean }>;
export type OrganizationUpdated = Message<'OrganizationUpdated', { key: string } & OrganizationDetails>;
export type PlanChanged = Message<'PlanChanged', { key: string; plan: PlanCode; previous: PlanCode; changed_at: string }>;
/** A project slot of the organization's projects quota, taken before the project is created. */
export type ProjectSlotReserved = Message<'ProjectSlotReserved', { organization: string; project: string }>;
/** The projects that existed before slots were counted (the bootstrap project), taken once. */
export type ProjectSlotsSeeded = Message<'ProjectSlotsSeeded', { organization: string; projects: readonly string[] }>;
export type ProjectSlotReleased = Message<'ProjectSlotReleased', { organization: string; project: string }>;

export type OrganizationEvent = OrganizationCreated | OrganizationUpdated | PlanChanged | ProjectSlotsSeeded | ProjectSlotReserved | ProjectSlotReleased;
