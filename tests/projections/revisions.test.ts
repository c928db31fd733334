import { expect } from 'chai';
import type { StoredEvent } from '../../commands/ports.js';
import type { DomainEvent } from '../../domain/events.js';
import type { Doc } from '../../projections/ports.js';
import { revisionsProjection } from '../../projections/revisions.js';

/** Applies the projection's changes to an in-memory collection. */
function project(events: readonly DomainEvent[]): Map<string, Doc> {
  const docs = new Map<string, Doc>();
  for (const event of events) {
    for (const change of revisionsProjection.changes(event, {} as StoredEvent)) {
      const next = change.apply(docs.get(change.id) ?? null);
      if (next === null) docs.delete(change.id);
      else docs.set(change.id, next);
    }
  }
  return docs;
}

const ref = { env: 'e', folder: 'c1', resource: 'r1' };
const created = (key: string, number: number): DomainEvent => ({
  type: 'RevisionCreated',
  data: { ...ref, key, number, data: { title: key }, size: 15, schema_version: 'v1', status: 'draft', is_valid: true, created_at: 't1', published_at: null },
});

describe('the revisions read model', () => {
  it('holds one document per revision with its payload, status and times', () => {
    const docs = project([
      created('a', 1),
      created('b', 2),
      { type: 'RevisionPublished', data: { ...ref, key: 'a', published_at: 't2', data: { title: 'a' } } },
      { type: 'RevisionUnpublished', data: { ...ref, key: 'a', unpublished_at: 't3' } },
      { type: 'RevisionPublished', data: { ...ref, key: 'b', published_at: 't3', data: { title: 'b' } } },
    ]);
    expect(docs.get('a')).to.deep.equal({
      _id: 'a', ...ref, key: 'a', number: 1, data: { title: 'a' }, size: 15, schema_version: 'v1', status: 'unpublished', is_valid: true,
      created_at: 't1', published_at: 't2', unpublished_at: 't3',
    });
    expect(docs.get('b')).to.include({ status: 'published', published_at: 't3', unpublished_at: null });
  });

  it('removes a deleted revision, and every revision of a deleted resource', () => {
    const snapshot = { number: 1, size: 15, status: 'draft' as const, is_valid: true, version_key: 'v1' };
    expect([...project([created('a', 1), created('b', 2), { type: 'RevisionDeleted', data: { ...ref, key: 'a', snapshot } }]).keys()]).to.deep.equal(['b']);
    const gone = project([
      created('a', 1),
      created('b', 2),
      {
        type: 'ResourceDeleted',
        data: { env: 'e', folder: 'c1', key: 'r1', external_id: null, revisions: ['a', 'b'], snapshot: { name: null, content_type: 'document', document_id: 'r1', resource_owner_key: null, current_revision_key: null } },
      },
    ]);
    expect(gone.size).to.equal(0);
    expect(revisionsProjection.removals?.({ type: 'CollectionDeleted', data: { env: 'e', key: 'c1', parent: null, snapshot: {} as never } })).to.deep.equal([
      { collection: 'revisions', where: { folder: 'c1' } },
    ]);
  });
});
