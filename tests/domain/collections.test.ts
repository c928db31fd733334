import { expect } from 'chai';
import { collections, type CreateCollection } from '../../domain/collections/decider.js';
import type { CollectionCreated } from '../../domain/collections/events.js';
import { deciderSpec } from '../support/decider-spec.js';

const spec = deciderSpec(collections);
const at = '2026-01-01T00:00:00.000Z';

const create = (key: string, alias: string, extra: Partial<CreateCollection['data']> = {}): CreateCollection => ({
  type: 'CreateCollection',
  data: { env: 'e', key, name: alias, alias, parent: null, strict_reference: false, auto_remove_revisions: null, auto_remove_schema_versions: null, created_at: at, quota: 50, ...extra },
});

const created = (command: CreateCollection, path: string): CollectionCreated => {
  const { quota: _quota, ...data } = command.data;
  return { type: 'CollectionCreated', data: { ...data, path, content_type: 'document' } };
};

describe('collections decider', () => {
  const blog = create('c1', 'blog');

  it('creates a root collection whose path is its alias', () => {
    spec.given([]).when(blog).then([created(blog, 'blog')]);
  });

  it('creates a child collection whose path joins the aliases with dots', () => {
    const child = create('c2', 'articles', { parent: 'c1' });
    spec.given([created(blog, 'blog')]).when(child).then([created(child, 'blog.articles')]);
  });

  it('refuses an unknown parent with collection_not_found', () => {
    spec.given([]).when(create('c2', 'x', { parent: 'nope' })).thenThrows('collection_not_found');
  });

  it('refuses an alias already used by a sibling with validation_error', () => {
    spec.given([created(blog, 'blog')]).when(create('c2', 'blog')).thenThrows('validation_error');
  });

  it('allows the same alias under another parent', () => {
    const child = create('c2', 'blog', { parent: 'c1' });
    spec.given([created(blog, 'blog')]).when(child).then([created(child, 'blog.blog')]);
  });

  it('refuses strict_reference on a root collection', () => {
    spec.given([]).when(create('c1', 'blog', { strict_reference: true })).thenThrows('validation_error');
  });

  it('refuses a non-strict collection inside a strict one', () => {
    const strict = create('c2', 'posts', { parent: 'c1', strict_reference: true });
    spec.given([created(blog, 'blog'), created(strict, 'blog.posts')]).when(create('c3', 'comments', { parent: 'c2' })).thenThrows('validation_error');
  });

  it('stores the auto-remove settings in the event and keeps them in the node state', () => {
    const tidy = create('c1', 'blog', { auto_remove_revisions: 5, auto_remove_schema_versions: 100 });
    const events = spec.given([]).when(tidy).thenReturns();
    expect(events).to.deep.equal([created(tidy, 'blog')]);
    const state = events.reduce(collections.evolve, collections.initialState());
    expect(state.byKey.c1).to.include({ auto_remove_revisions: 5, auto_remove_schema_versions: 100 });
    const plain = [created(blog, 'blog')].reduce(collections.evolve, collections.initialState());
    expect(plain.byKey.c1).to.include({ auto_remove_revisions: null, auto_remove_schema_versions: null });
  });

  it('refuses a create beyond the plan quota with plan_limit_exceeded and an upgrade URL', () => {
    spec
      .given([created(blog, 'blog')])
      .when(create('c2', 'other', { quota: 1 }))
      .thenThrows('plan_limit_exceeded', { entity: 'collections', current: 1, limit: 1 });
  });
});
