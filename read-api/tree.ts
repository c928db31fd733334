import type { Filter } from '../projections/ports.js';

export const TREE_MODES = ['children', 'siblings', 'descendants', 'ancestors'] as const;
export type TreeMode = (typeof TREE_MODES)[number];

/**
 * The nodes around one node of a dot-path tree (collections by alias path, fields by key
 * path) within `scope`. `id` is what children name as their `parent`.
 */
export function treeFilter(scope: Filter, node: { id: string; parent: string | null; path: string }, mode: TreeMode): Filter {
  const ancestors = node.path.split('.').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('.'));
  switch (mode) {
    case 'children':
      return { ...scope, parent: node.id };
    case 'siblings':
      return { ...scope, parent: node.parent, path: { $ne: node.path } };
    case 'descendants':
      return { ...scope, path: { $gt: `${node.path}.`, $lt: `${node.path}/` } };
    case 'ancestors':
      return { ...scope, path: { $in: ancestors } };
  }
}
