import type { Message } from '../decider.js';
import { DomainError, notFound } from '../errors.js';
import { CEILINGS } from '../plan.js';
import { own } from '../records.js';
import type { SchemaState, Version } from './state.js';
import type { SchemaEvent, SchemaOwner } from './events.js';
import { checkField } from './field-rules.js';
import { ancestorsOf, countFields, descendantsOf, joinPath, rebase } from './field-tree.js';
import { isContainer, type FieldDef, type NestedPin } from './fields.js';

/** Create, update and delete of the fields of a draft version (docs/decisions/0026). */

/** What an update may change: everything but the place (`parent`); a new `key` renames the subtree. */
export type FieldChanges = Partial<Omit<FieldDef, 'path' | 'parent' | 'pin'>>;

export type CreateField = Message<'CreateField', SchemaOwner & { readonly version: string; readonly field: FieldDef }>;
export type UpdateField = Message<
  'UpdateField',
  SchemaOwner & {
    readonly version: string;
    readonly path: string;
    readonly changes: FieldChanges;
    /** Facts about the component version `changes.meta` pins, looked up by the handler. */
    readonly pin: NestedPin | null;
  }
>;
export type DeleteField = Message<'DeleteField', SchemaOwner & { readonly version: string; readonly path: string }>;

/**
 * How many levels of child fields one schema may nest (docs/decisions/0029). With components
 * nested 2 deep, data nests at most three times this, well inside what the stores and the
 * validator handle.
 */
export const MAX_FIELD_DEPTH = 20;

export const noField = (): DomainError => new DomainError('validation_error', 'No field at this path.', { path: ['no field at this path'] });

const unpinned = (): DomainError =>
  new DomainError('validation_error', 'A nested field needs a published component version.', { 'meta.component_version': ['must be a published version of the component'] });

/** A draft version of the schema: 404 version_not_found, 422 cannot_update_published_model. */
function draft(state: SchemaState, key: string): Version {
  const found = own(state.versions, key);
  if (!found) throw notFound('version_not_found', 'Schema version');
  if (found.version_number !== null || found.archived) throw new DomainError('cannot_update_published_model', 'A published version cannot be changed.');
  return found;
}

function fieldAt(target: Version, path: string): FieldDef {
  const found = target.fields.find((f) => f.path === path);
  if (!found) throw noField();
  return found;
}

function checkCeiling(current: number, next: number): void {
  if (next > current && next > CEILINGS.fields_per_version) {
    throw new DomainError('too_many_fields', `A version holds at most ${CEILINGS.fields_per_version} fields, the fields of nested components included.`, {
      current,
      limit: CEILINGS.fields_per_version,
    });
  }
}

export function decideCreateField({ data }: CreateField, state: SchemaState): SchemaEvent[] {
  const target = draft(state, data.version);
  const { field } = data;
  if (target.fields.some((f) => f.path === field.path)) {
    throw new DomainError('validation_error', 'A field with this key exists already.', { key: ['must be unique within its parent'] });
  }
  if (field.parent !== null && !target.fields.some((f) => f.path === field.parent)) {
    throw new DomainError('validation_error', 'The parent field does not exist.', { parent: ['no field at this path'] });
  }
  if (field.path.split('.').length > MAX_FIELD_DEPTH) {
    throw new DomainError('validation_error', `Fields nest at most ${MAX_FIELD_DEPTH} levels deep.`, { parent: [`at most ${MAX_FIELD_DEPTH} levels of fields`] });
  }
  checkField(field, ancestorsOf(target.fields, field.parent));
  if (field.type === 'nested' && !field.pin) throw unpinned();
  const current = countFields(target.fields);
  checkCeiling(current, current + countFields([field]));
  return [{ type: 'SchemaFieldCreated', data }];
}

/** The field after an update: changed keys replace the old ones, `meta` as a whole; the pin follows the meta. */
function updated(before: FieldDef, changes: FieldChanges, pin: NestedPin | null): FieldDef {
  const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as FieldChanges;
  const { pin: oldPin, ...rest } = before;
  const next: FieldDef = { ...rest, ...defined, path: joinPath(before.parent, defined.key ?? before.key) };
  const keepPin = next.type === 'nested' && changes.meta === undefined && oldPin !== undefined;
  if (pin) return { ...next, pin };
  return keepPin ? { ...next, pin: oldPin } : next;
}

export function decideUpdateField({ data }: UpdateField, state: SchemaState): SchemaEvent[] {
  const target = draft(state, data.version);
  const before = fieldAt(target, data.path);
  const field = updated(before, data.changes, data.pin);
  if (field.path !== before.path && target.fields.some((f) => f.path === field.path)) {
    throw new DomainError('validation_error', 'A field with this key exists already.', { key: ['must be unique within its parent'] });
  }
  const ancestors = ancestorsOf(target.fields, field.parent);
  checkField(field, ancestors);
  if (field.type === 'nested' && !field.pin) throw unpinned();
  const below = descendantsOf(target.fields, before.path);
  if (below.length > 0 && !isContainer(field)) {
    throw new DomainError('validation_error', 'A field with child fields must stay an object or an array of objects.', {
      type: ['the field has child fields; delete them first'],
    });
  }
  const renamed = below.map((f) => ({ ...f, path: rebase(f.path, before.path, field.path), parent: f.parent === null ? null : rebase(f.parent, before.path, field.path) }));
  const tree = [...target.fields.filter((f) => f.path !== before.path && !below.includes(f)), field, ...renamed];
  for (const child of renamed) checkField(child, ancestorsOf(tree, child.parent));
  checkCeiling(countFields(target.fields), countFields(tree));
  const moved = field.path === before.path ? [] : below.map((f) => f.path);
  return [{ type: 'SchemaFieldUpdated', data: { env: data.env, schema_key: data.schema_key, schema_type: data.schema_type, version: data.version, path: before.path, field, moved } }];
}

export function decideDeleteField({ data }: DeleteField, state: SchemaState): SchemaEvent[] {
  const target = draft(state, data.version);
  const field = fieldAt(target, data.path);
  const removed = [field.path, ...descendantsOf(target.fields, field.path).map((f) => f.path)];
  return [{ type: 'SchemaFieldDeleted', data: { ...data, removed } }];
}

/** The version's fields after a field event. */
export function evolveFields(fields: readonly FieldDef[], event: SchemaEvent): readonly FieldDef[] {
  switch (event.type) {
    case 'SchemaFieldCreated':
      return [...fields, event.data.field];
    case 'SchemaFieldUpdated': {
      const { path, field } = event.data;
      return fields.map((f) => {
        if (f.path === path) return field;
        if (!f.path.startsWith(`${path}.`) || field.path === path) return f;
        return { ...f, path: rebase(f.path, path, field.path), parent: f.parent === null ? null : rebase(f.parent, path, field.path) };
      });
    }
    case 'SchemaFieldDeleted': {
      const removed = new Set(event.data.removed);
      return fields.filter((f) => !removed.has(f.path));
    }
    default:
      return fields;
  }
}
