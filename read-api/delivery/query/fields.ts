import { SYS_FIELDS, type FieldRef, type SysField } from '../../../projections/delivery-query.js';
import { didYouMean } from '../../../domain/validation-messages.js';
import type { Catalog, CatalogField, ValueKind } from './catalog.js';

/** A field a reader named, resolved against the collection's catalog. */
export type ResolvedField = {
  readonly ref: FieldRef;
  readonly kind: ValueKind;
  /** Kind of an array field's items. */
  readonly items: ValueKind | null;
  /** The catalog entry of a data field (null for `_sys` fields). */
  readonly field: CatalogField | null;
};

/** How names resolve: localizable fields are read in `locale` (the search locale). */
export type FieldContext = { readonly catalog: Catalog; readonly locale: string };

const SYS: ReadonlySet<string> = new Set(SYS_FIELDS);

/**
 * `_sys.created_at`, `title`, `author.name`: a `_sys` member or a dot path through object
 * fields; a localizable field gets the locale segment. Null when nothing has that name.
 */
export function resolveField(name: string, context: FieldContext): ResolvedField | null {
  if (name.startsWith('_sys.')) {
    const member = name.slice('_sys.'.length);
    return SYS.has(member) ? { ref: { scope: 'sys', name: member as SysField }, kind: 'string', items: null, field: null } : null;
  }
  const segments = name.split('.');
  const path: string[] = [];
  let fields: Catalog = context.catalog;
  let field: CatalogField | undefined;
  for (const [i, segment] of segments.entries()) {
    field = fields.get(segment);
    if (!field) return null;
    path.push(segment);
    if (field.localizable) path.push(context.locale);
    if (i < segments.length - 1 && field.kind !== 'object') return null;
    fields = field.children;
  }
  if (!field) return null;
  return { ref: { scope: 'data', path }, kind: field.kind, items: field.items, field };
}

/** `unknown field titel (did you mean title?)`: the refusal of a name no field has, with the nearest one when it is close. */
export function unknownField(name: string, context: FieldContext): string {
  const known = [...context.catalog.keys(), ...SYS_FIELDS.map((member) => `_sys.${member}`)];
  return `unknown field ${name}${didYouMean(name, known)}`;
}
