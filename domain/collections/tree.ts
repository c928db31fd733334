import type { CollectionsState } from './decider.js';

/**
 * The key-bearing ancestors (root first) a strict-reference collection's nested route runs
 * through: its parent, and further up while the collection stepped from is strict.
 */
export function strictChain(state: CollectionsState, key: string): string[] {
  const chain: string[] = [];
  let node = state.byKey[key];
  while (node?.strict_reference && node.parent !== null) {
    chain.unshift(node.parent);
    node = state.byKey[node.parent];
  }
  return chain;
}

/** Collections whose nested route runs through `key`. */
export function strictDependents(state: CollectionsState, key: string): string[] {
  return Object.keys(state.byKey).filter((other) => other !== key && strictChain(state, other).includes(key));
}
