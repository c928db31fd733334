import { DomainError } from '../errors.js';
import { refuseMode, refuseOversize } from './content.js';
import type { CreateResource, OwnerCheck } from './commands.js';
import type { ResourceEvent, ResourceFields } from './events.js';
import { revisionCreated } from './revision-events.js';
import type { ResourceState } from './state.js';

export function refuseOwner(owner: OwnerCheck, resourceOwner: string | null): void {
  if (owner.required && resourceOwner === null) {
    throw new DomainError('resource_owner_required', 'A resource of a strict-reference collection needs its parent resource in resource_owner.');
  }
  if (!owner.required && resourceOwner !== null) {
    throw new DomainError('validation_error', 'resource_owner is only for strict-reference collections.', { resource_owner: ['not allowed here'] });
  }
  if (owner.required && !owner.found) throw new DomainError('resource_owner_not_found', 'The parent resource does not exist in the parent collection.');
}

/** A new resource with revision 1, published at once with mode=instant. */
export function create(
  { data }: CreateResource,
  state: ResourceState,
  code: 'validation_error' | 'data_validation_error' = 'validation_error',
): ResourceEvent[] {
  const { mode, revision, data: payload, size, validation, validate_data, owner, ...resource } = data;
  if (state.status !== 'none') throw new DomainError('validation_error', 'The resource key exists already.');
  refuseOwner(owner, resource.resource_owner);
  refuseOversize(size);
  refuseMode(mode, validate_data, validation, code);
  const fields: ResourceFields = resource;
  return [
    { type: 'ResourceCreated', data: fields },
    revisionCreated(fields, 1, { revision, data: payload, size, validation, validate_data }, mode === 'instant', resource.created_at),
  ];
}
