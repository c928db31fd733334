import { DomainError } from '../errors.js';
import { nestingDepth } from './field-tree.js';
import type { FieldDef } from './fields.js';

/** Component inheritance depth (specification, Fixed technical limits): components nest at most 2 levels. */
export const COMPONENT_INHERITANCE_DEPTH = 2;

/**
 * What a draft's fields must satisfy to be published, beyond what each field was checked
 * for when it was defined: components nested no deeper than the inheritance depth, and
 * every array with `match` has child fields to match. 422 validation_error otherwise.
 */
export function checkPublishable(fields: readonly FieldDef[]): void {
  const detail = new Map<string, string[]>();
  const depth = nestingDepth(fields);
  if (depth > COMPONENT_INHERITANCE_DEPTH) {
    const deep = fields.filter((f) => f.pin && f.pin.depth + 1 > COMPONENT_INHERITANCE_DEPTH).map((f) => f.path);
    for (const path of deep) detail.set(path, [`nests components ${depth} levels deep; at most ${COMPONENT_INHERITANCE_DEPTH} are allowed`]);
  }
  for (const field of fields) {
    if (field.type === 'array' && field.meta.match !== undefined && !fields.some((f) => f.parent === field.path)) {
      detail.set(field.path, [`an array with match "${field.meta.match}" needs at least one child field`]);
    }
  }
  if (detail.size > 0) throw new DomainError('validation_error', 'The version cannot be published as it is.', Object.fromEntries(detail));
}
