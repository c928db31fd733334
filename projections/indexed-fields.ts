/** Collection → index declarations (field lists), as projections declare them. */
export type IndexDeclarations = Readonly<Record<string, readonly (readonly string[])[]>>;

/**
 * The fields each collection's indexes name, once each, in the order first declared. A SQL
 * read store keeps these beside the document as columns of their own, written with it, so its
 * indexes and the queries they serve read plain columns instead of the document's JSON text
 * (docs/decisions/0304). Nested paths and `_id` (already the key) are left out.
 */
export function indexedFields(declarations: readonly (IndexDeclarations | undefined)[]): ReadonlyMap<string, readonly string[]> {
  const fields = new Map<string, string[]>();
  for (const declared of declarations) {
    for (const [collection, indexes] of Object.entries(declared ?? {})) {
      const list = fields.get(collection) ?? [];
      for (const field of indexes.flat()) {
        if (field !== '_id' && !field.includes('.') && !list.includes(field)) list.push(field);
      }
      fields.set(collection, list);
    }
  }
  return fields;
}
