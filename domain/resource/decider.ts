import type { Decider, Message } from '../decider.js';
import { DomainError, notFound } from '../errors.js';
import { MAX_PAYLOAD_BYTES, type ResourceEvent, type ResourceFields } from './events.js';

/** One resource and its revisions. */

/** The outcome of validating the payload against the collection's published schema, done by the handler. */
export type Validation = {
  readonly schema_version: string | null;
  readonly errors: readonly { readonly path: string; readonly message: string }[] | null;
};

/** What the handler found about the parent a strict-reference collection requires. */
export type OwnerCheck = {
  /** The collection is strict-reference: `resource_owner` is required. */
  readonly required: boolean;
  /** The named owner is a resource of the parent collection. */
  readonly found: boolean;
};

export type CreateResource = Message<
  'CreateResource',
  ResourceFields & {
    readonly owner: OwnerCheck;
    readonly mode: 'instant' | 'draft';
    readonly revision: string;
    readonly data: Record<string, unknown>;
    readonly size: number;
    readonly validation: Validation;
    readonly validate_data: boolean;
  }
>;
/** `name` left out (undefined) keeps the name: nothing changes. */
export type UpdateMetadata = Message<'UpdateMetadata', { readonly env: string; readonly folder: string; readonly key: string; readonly name?: string | null }>;
export type ResourceCommand = CreateResource | UpdateMetadata;

export type ResourceState =
  | { readonly status: 'none' }
  | { readonly status: 'active'; readonly key: string; readonly folder: string; readonly revisions: number; readonly current: string | null };

function create({ data }: CreateResource, state: ResourceState): ResourceEvent[] {
  const { mode, revision, data: payload, size, validation, validate_data, owner, ...resource } = data;
  if (state.status !== 'none') throw new DomainError('validation_error', 'The resource key exists already.');
  if (owner.required && resource.resource_owner === null) {
    throw new DomainError('resource_owner_required', 'A resource of a strict-reference collection needs its parent resource in resource_owner.');
  }
  if (!owner.required && resource.resource_owner !== null) {
    throw new DomainError('validation_error', 'resource_owner is only for strict-reference collections.', { resource_owner: ['not allowed here'] });
  }
  if (owner.required && !owner.found) throw new DomainError('resource_owner_not_found', 'The parent resource does not exist in the parent collection.');
  if (size > MAX_PAYLOAD_BYTES) throw new DomainError('json_size_exceeded', 'The payload is larger than 1 MB.', { size, limit: MAX_PAYLOAD_BYTES });
  if (!validate_data && mode !== 'draft') {
    throw new DomainError('validation_error', 'validate_data=false is only allowed with mode=draft.', { validate_data: ['requires mode=draft'] });
  }
  if (mode === 'instant' && validation.schema_version === null) {
    throw new DomainError('validation_error', 'The collection has no published schema version.', { data: ['no published schema'] });
  }
  const errors = validation.errors ?? [];
  if (validate_data && errors.length > 0) throw new DomainError('validation_error', 'The data does not follow the schema.', { errors });
  const published = mode === 'instant';
  return [
    { type: 'ResourceCreated', data: resource },
    {
      type: 'RevisionCreated',
      data: {
        env: resource.env,
        folder: resource.folder,
        resource: resource.key,
        key: revision,
        number: 1,
        data: payload,
        size,
        schema_version: validation.schema_version,
        status: published ? 'published' : 'draft',
        is_valid: validation.errors === null ? null : errors.length === 0,
        created_at: resource.created_at,
        published_at: published ? resource.created_at : null,
      },
    },
  ];
}

export const resource: Decider<ResourceState, ResourceCommand, ResourceEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'ResourceCreated':
        return { status: 'active', key: event.data.key, folder: event.data.folder, revisions: 0, current: null };
      case 'ResourceUpdated':
        return state;
      case 'RevisionCreated': {
        if (state.status !== 'active') return state;
        const current = event.data.status === 'published' ? event.data.key : state.current;
        return { ...state, revisions: event.data.number, current };
      }
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'CreateResource':
        return create(command, state);
      case 'UpdateMetadata':
        if (state.status !== 'active' || state.folder !== command.data.folder) throw notFound('resource_not_found', 'Resource');
        if (command.data.name === undefined) return [];
        return [{ type: 'ResourceUpdated', data: { ...command.data, name: command.data.name } }];
    }
  },
};
