import type { Message } from '../decider.js';

/** Events of one environment (stream `environment-{key}`). */

export type ProtectionLevel = 'none' | 'read_only' | 'locked';
export const PROTECTION_LEVELS: readonly ProtectionLevel[] = ['none', 'read_only', 'locked'];

/** Enabling or disabling waits this long after the previous toggle (specification, Fixed technical limits). */
export const TOGGLE_INTERVAL_SECONDS = 300;

export type EnvironmentCreated = Message<
  'EnvironmentCreated',
  { key: string; project: string; organization: string; name: string; host: string; is_production: boolean; created_at: string }
>;
export type EnvironmentUpdated = Message<'EnvironmentUpdated', { key: string; project: string; organization: string; name: string }>;
export type EnvironmentToggled = Message<
  'EnvironmentToggled',
  { key: string; project: string; organization: string; is_enabled: boolean; toggled_at: string }
>;
export type EnvironmentProtectionChanged = Message<
  'EnvironmentProtectionChanged',
  {
    key: string;
    project: string;
    organization: string;
    protection_level: ProtectionLevel;
    protection_reason: string | null;
    protected_by_user: Readonly<Record<string, unknown>> | null;
    protected_at: string | null;
  }
>;
/** The audit snapshot of the specification's delete snapshots table. */
export type EnvironmentSnapshot = {
  name: string;
  host: string;
  project_key: string;
  project_id: string;
  customer_key: string;
  block_reason: string | null;
  block_last_state_enabled: boolean;
  protected_by_user_uid: string | null;
};
export type EnvironmentDeleted = Message<
  'EnvironmentDeleted',
  { key: string; project: string; organization: string; deleted_at: string; snapshot: EnvironmentSnapshot }
>;

export type EnvironmentEvent = EnvironmentCreated | EnvironmentUpdated | EnvironmentToggled | EnvironmentProtectionChanged | EnvironmentDeleted;
