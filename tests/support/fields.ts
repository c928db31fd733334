import type { FieldDef } from '../../domain/schema/fields.js';

/** A field definition with every flag off; `extra` overrides (a `parent` also sets the path). */
export function fieldDef(key: string, extra: Partial<FieldDef> = {}): FieldDef {
  const parent = extra.parent ?? null;
  return {
    key,
    name: '',
    description: '',
    path: parent === null ? key : `${parent}.${key}`,
    parent,
    type: 'string',
    meta: {},
    required: false,
    nullable: false,
    multiple: false,
    localizable: false,
    searchable: false,
    private: false,
    vectorizable: false,
    ...extra,
  };
}
