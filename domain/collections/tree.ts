import { own } from '../records.js';
import type { CollectionNode, CollectionsState } from './state.js';

/**
 * The key-bearing ancestors (root first) a strict-reference collection's nested route runs
 * through: its parent, and further up while the collection stepped from is strict.
 */
export function strictChain(state: CollectionsState, key: string): string[] {
  const chain: string[] = [];
  let node = own(state.byKey, key);
  while (node?.strict_reference && node.parent !== null) {
    chain.unshift(node.parent);
    node = own(state.byKey, node.parent);
  }
  return chain;
}

/** Collections whose nested route runs through `key`. */
export function strictDependents(state: CollectionsState, key: string): string[] {
  return Object.keys(state.byKey).filter((other) => other !== key && strictChain(state, other).includes(key));
}

/** Whether `key` is `ancestor` or lies below it. */
export function isWithin(state: CollectionsState, key: string, ancestor: string): boolean {
  for (let node = own(state.byKey, key); node; node = node.parent === null ? undefined : own(state.byKey, node.parent)) {
    if (node.key === ancestor) return true;
  }
  return false;
}

/** Every collection below `key` (children, their children, ...). */
export function descendantsOf(state: CollectionsState, key: string): CollectionNode[] {
  return Object.values(state.byKey).filter((node) => node.key !== key && isWithin(state, node.key, key));
}

/** How deep a collection sits: 1 for a root. */
export const depthOf = (node: CollectionNode): number => node.path.split('.').length;
