import type { FieldDef } from './fields.js';

/**
 * The components a version's fields nest (each nested field names one in `meta.component`),
 * once each, in field order: the `nested_schemas` of a component's delete snapshot.
 */
export function nestedSchemas(fields: readonly FieldDef[]): string[] {
  const keys = fields.flatMap((field) => {
    const component = (field.meta as { readonly component?: unknown }).component;
    return typeof component === 'string' ? [component] : [];
  });
  return [...new Set(keys)];
}
