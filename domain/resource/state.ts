import type { ResourceEvent, RevisionStatus } from './events.js';

/** What the resource decider remembers of a revision (never its payload). */
export type RevisionSummary = {
  readonly key: string;
  readonly number: number;
  readonly size: number;
  readonly status: RevisionStatus;
  readonly is_valid: boolean | null;
  readonly schema_version: string | null;
  /** When the scheduler is to publish it (absent: not scheduled). */
  readonly publish_at?: string;
};

export type ActiveResource = {
  readonly status: 'active';
  readonly env: string;
  readonly key: string;
  readonly folder: string;
  readonly name: string | null;
  readonly external_id: string | null;
  readonly resource_owner: string | null;
  readonly created_at: string;
  /** The number of the newest revision ever created (numbers are never reused). */
  readonly revisions: number;
  /** The published revision, or null for a draft resource. */
  readonly current: string | null;
  /** Revisions not deleted, oldest first. */
  readonly live: readonly RevisionSummary[];
};

export type ResourceState = { readonly status: 'none' } | ActiveResource | { readonly status: 'deleted'; readonly key: string; readonly folder: string };

const withStatus = (live: readonly RevisionSummary[], key: string, status: RevisionStatus): RevisionSummary[] =>
  live.map((r) => (r.key === key ? { ...r, status } : r));

/** The revision `key` with its schedule set to `publish_at`, or cleared (undefined). */
const withSchedule = (live: readonly RevisionSummary[], key: string, publish_at: string | undefined): RevisionSummary[] =>
  live.map((r) => {
    if (r.key !== key) return r;
    const { publish_at: _old, ...rest } = r;
    return publish_at === undefined ? rest : { ...rest, publish_at };
  });

export function evolve(state: ResourceState, event: ResourceEvent): ResourceState {
  if (event.type === 'ResourceCreated') {
    const { env, key, folder, name, external_id, resource_owner, created_at } = event.data;
    return { status: 'active', env, key, folder, name, external_id, resource_owner, created_at, revisions: 0, current: null, live: [] };
  }
  if (state.status !== 'active') return state;
  switch (event.type) {
    case 'ResourceUpdated':
      return { ...state, name: event.data.name };
    case 'RevisionCreated': {
      const { key, number, size, status, is_valid, schema_version } = event.data;
      return {
        ...state,
        revisions: number,
        current: status === 'published' ? key : state.current,
        live: [...state.live, { key, number, size, status, is_valid, schema_version }],
      };
    }
    case 'RevisionPublished':
      return { ...state, current: event.data.key, live: withSchedule(withStatus(state.live, event.data.key, 'published'), event.data.key, undefined) };
    case 'RevisionScheduled':
      return { ...state, live: withSchedule(state.live, event.data.key, event.data.publish_at) };
    case 'RevisionScheduleCancelled':
      return { ...state, live: withSchedule(state.live, event.data.key, undefined) };
    case 'RevisionUnpublished':
      return { ...state, current: state.current === event.data.key ? null : state.current, live: withStatus(state.live, event.data.key, 'unpublished') };
    case 'RevisionDeleted':
      return { ...state, live: state.live.filter((r) => r.key !== event.data.key) };
    case 'RevisionUpdated': {
      const { key, size, is_valid, schema_version } = event.data;
      return { ...state, live: state.live.map((r) => (r.key === key ? { ...r, size, is_valid, schema_version } : r)) };
    }
    case 'ResourceDeleted':
      return { status: 'deleted', key: state.key, folder: state.folder };
  }
}
