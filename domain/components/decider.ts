import type { Decider, Message } from '../decider.js';
import { DomainError, notFound } from '../errors.js';
import { CEILINGS, planLimitExceeded } from '../plan.js';
import { has, own } from '../records.js';
import type { ComponentFields, ComponentsEvent } from './events.js';

/** The components of one environment: owns their existence and the safety ceiling. */

export type CreateComponent = Message<'CreateComponent', Omit<ComponentFields, 'content_type'>>;
/** A field left out keeps its value. */
export type UpdateComponent = Message<'UpdateComponent', { readonly env: string; readonly key: string; readonly name?: string; readonly description?: string }>;
/** `current_version` and `nested_schemas` are read by the handler from the component's schema stream. */
export type DeleteComponent = Message<
  'DeleteComponent',
  { readonly env: string; readonly key: string; readonly current_version: string | null; readonly nested_schemas: readonly string[] }
>;
export type ComponentsCommand = CreateComponent | UpdateComponent | DeleteComponent;

export type ComponentNode = Pick<ComponentFields, 'key' | 'name' | 'description'>;

export type ComponentsState = { readonly byKey: Readonly<Record<string, ComponentNode>>; readonly count: number };

function existing(state: ComponentsState, key: string): ComponentNode {
  const found = own(state.byKey, key);
  if (!found) throw notFound('component_not_found', 'Component');
  return found;
}

function create({ data }: CreateComponent, state: ComponentsState): ComponentsEvent[] {
  if (has(state.byKey, data.key)) throw new DomainError('validation_error', 'The component key exists already.');
  if (state.count >= CEILINGS.components) throw planLimitExceeded('components', state.count, CEILINGS.components, false);
  return [{ type: 'ComponentCreated', data: { ...data, content_type: 'document' } }];
}

function update({ data }: UpdateComponent, state: ComponentsState): ComponentsEvent[] {
  const current = existing(state, data.key);
  const name = data.name ?? current.name;
  const description = data.description ?? current.description;
  if (name === current.name && description === current.description) return [];
  return [{ type: 'ComponentUpdated', data: { env: data.env, key: data.key, name, description } }];
}

function remove({ data }: DeleteComponent, state: ComponentsState): ComponentsEvent[] {
  const { name, description } = existing(state, data.key);
  const snapshot = {
    name,
    description,
    content_type: 'document',
    is_component: true,
    current_version_key: data.current_version,
    nested_schemas: [...data.nested_schemas],
  } as const;
  return [{ type: 'ComponentDeleted', data: { env: data.env, key: data.key, snapshot } }];
}

function evolve(state: ComponentsState, event: ComponentsEvent): ComponentsState {
  switch (event.type) {
    case 'ComponentCreated': {
      const { key, name, description } = event.data;
      return { byKey: { ...state.byKey, [key]: { key, name, description } }, count: state.count + 1 };
    }
    case 'ComponentUpdated': {
      const { key, name, description } = event.data;
      return { ...state, byKey: { ...state.byKey, [key]: { key, name, description } } };
    }
    case 'ComponentDeleted': {
      if (!has(state.byKey, event.data.key)) return state;
      const { [event.data.key]: _gone, ...byKey } = state.byKey;
      return { byKey, count: state.count - 1 };
    }
  }
}

export const components: Decider<ComponentsState, ComponentsCommand, ComponentsEvent> = {
  initialState: () => ({ byKey: {}, count: 0 }),
  evolve,
  decide: (command, state) => {
    switch (command.type) {
      case 'CreateComponent':
        return create(command, state);
      case 'UpdateComponent':
        return update(command, state);
      case 'DeleteComponent':
        return remove(command, state);
    }
  },
};
