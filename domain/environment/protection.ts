import { DomainError, notFound } from '../errors.js';
import type { ProtectionLevel } from './events.js';
import type { EnvironmentState } from './state.js';

/** 403 environment_protected: the environment's protection level refuses the write. */
export const environmentProtected = (level: ProtectionLevel): DomainError =>
  new DomainError(
    'environment_protected',
    level === 'locked'
      ? 'The environment is locked: only reads and unlocking are allowed.'
      : 'The environment is read-only: writes are refused until its protection level is none.',
    { protection_level: level },
  );

/** 403 environment_disabled: a disabled environment serves no management or delivery request. */
export const environmentDisabled = (): DomainError =>
  new DomainError('environment_disabled', 'The environment is disabled; enable it to use it again.', { is_enabled: false });

/**
 * The one rule for a write inside an environment (content, APIs, keys, roles, locales,
 * delivery writes): the environment must exist, be enabled and not be protected.
 */
export function assertWritable(state: EnvironmentState): void {
  if (state.status === 'deleted') throw notFound('environment_not_found', 'Environment');
  if (state.status !== 'active') return;
  if (!state.is_enabled) throw environmentDisabled();
  if (state.protection_level !== 'none') throw environmentProtected(state.protection_level);
}
