import type { FieldDef } from './fields.js';

/** The fields of one version as a tree of dot paths. */

/** The fields above `path`, top first (the last is its parent). */
export function ancestorsOf(fields: readonly FieldDef[], parent: string | null): FieldDef[] {
  if (parent === null) return [];
  const parts = parent.split('.');
  const found: FieldDef[] = [];
  for (let i = 1; i <= parts.length; i++) {
    const path = parts.slice(0, i).join('.');
    const field = fields.find((f) => f.path === path);
    if (field) found.push(field);
  }
  return found;
}

export const isUnder = (path: string, ancestor: string): boolean => path.startsWith(`${ancestor}.`);

/** The fields below `path`, in definition order. */
export const descendantsOf = (fields: readonly FieldDef[], path: string): FieldDef[] => fields.filter((f) => isUnder(f.path, path));

/** A path with its leading `from` replaced by `to` (a rename of a field moves its subtree). */
export const rebase = (path: string, from: string, to: string): string => (path === from ? to : `${to}${path.slice(from.length)}`);

export const joinPath = (parent: string | null, key: string): string => (parent === null ? key : `${parent}.${key}`);

/** How many fields a version holds, the fields of its pinned components included (the 1,000 ceiling counts these). */
export const countFields = (fields: readonly FieldDef[]): number => fields.reduce((sum, f) => sum + 1 + (f.pin?.fields ?? 0), 0);

/** How deep components nest inside a version: 0 without nested fields, 1 with a component that nests none, ... */
export const nestingDepth = (fields: readonly FieldDef[]): number => fields.reduce((depth, f) => (f.pin ? Math.max(depth, f.pin.depth + 1) : depth), 0);
