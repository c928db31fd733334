import { expect } from 'chai';
import { components, type ComponentsCommand } from '../../domain/components/decider.js';
import type { ComponentsEvent } from '../../domain/components/events.js';
import { DomainError } from '../../domain/errors.js';
import { deciderSpec } from '../support/decider-spec.js';

const spec = deciderSpec(components);
const at = '2026-01-01T00:00:00.000Z';
const env = 'e';

const created = (key: string, name = key, description = ''): ComponentsEvent => ({
  type: 'ComponentCreated', data: { env, key, name, description, content_type: 'document', created_at: at },
});
const create = (key: string): ComponentsCommand => ({ type: 'CreateComponent', data: { env, key, name: key, description: '', created_at: at } });
const update = (key: string, change: { name?: string; description?: string }): ComponentsCommand => ({ type: 'UpdateComponent', data: { env, key, ...change } });
const del = (key: string, current_version: string | null = null, nested_schemas: string[] = []): ComponentsCommand => ({
  type: 'DeleteComponent', data: { env, key, current_version, nested_schemas },
});

describe('components decider', () => {
  it('creates a component with content_type document', () => {
    spec.given([]).when(create('c1')).then([created('c1')]);
  });

  it('refuses a key that exists already', () => {
    spec.given([created('c1')]).when(create('c1')).thenThrows('validation_error');
  });

  /** The state after 5,000 creates, built directly: folding 5,000 events through evolve costs seconds. */
  const full = () => {
    const byKey = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`c${i}`, { key: `c${i}`, name: `c${i}`, description: '' }]));
    return { byKey, count: 5000 };
  };

  it('refuses the 5,001st component with 403 plan_limit_exceeded and no upgrade_url', () => {
    let thrown: unknown;
    try {
      components.decide(create('one-more'), full());
    } catch (error) {
      thrown = error;
    }
    expect(thrown).to.be.instanceOf(DomainError);
    expect((thrown as DomainError).code).to.equal('plan_limit_exceeded');
    expect((thrown as DomainError).detail).to.deep.equal({ entity: 'components', current: 5000, limit: 5000 });
  });

  it('frees a place under the ceiling when a component is deleted', () => {
    const deleted = components.evolve(full(), {
      type: 'ComponentDeleted',
      data: { env, key: 'c0', snapshot: { name: 'c0', description: '', content_type: 'document', is_component: true, current_version_key: null, nested_schemas: [] } },
    });
    expect(components.decide(create('again'), deleted)).to.deep.equal([created('again')]);
  });

  it('updates name and description, keeping what is left out', () => {
    spec.given([created('c1', 'Old', 'desc')]).when(update('c1', { name: 'New' })).then([
      { type: 'ComponentUpdated', data: { env, key: 'c1', name: 'New', description: 'desc' } },
    ]);
    spec.given([created('c1', 'Old', 'desc')]).when(update('c1', { description: '' })).then([
      { type: 'ComponentUpdated', data: { env, key: 'c1', name: 'Old', description: '' } },
    ]);
  });

  it('writes nothing for an update that changes nothing', () => {
    spec.given([created('c1', 'Old', 'desc')]).when(update('c1', { name: 'Old' })).then([]);
  });

  it('refuses to update or delete an unknown or deleted component with component_not_found', () => {
    spec.given([]).when(update('nope', { name: 'x' })).thenThrows('component_not_found');
    spec.given([]).when(del('nope')).thenThrows('component_not_found');
    const gone = components.decide(del('c1'), [created('c1')].reduce(components.evolve, components.initialState()));
    spec.given([created('c1'), ...gone]).when(del('c1')).thenThrows('component_not_found');
  });

  it('deletes with the snapshot of the specification: last fields, published version and nested schemas', () => {
    spec.given([created('c1', 'Address', 'Postal')]).when(del('c1', 'v3', ['geo'])).then([
      {
        type: 'ComponentDeleted',
        data: {
          env, key: 'c1',
          snapshot: { name: 'Address', description: 'Postal', content_type: 'document', is_component: true, current_version_key: 'v3', nested_schemas: ['geo'] },
        },
      },
    ]);
  });
});
