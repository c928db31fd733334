import type { Doc } from '../projections/ports.js';

/** One step of a delivery address: a collection alias, followed by a resource key when `keyed`. */
export type RouteStep = { readonly alias: string; readonly folder: string; readonly keyed: boolean };

/**
 * A collection's ancestors and itself (root first), and its key-bearing ancestors (root
 * first): the parent, and further up while the collection stepped from is strict-reference.
 */
export function lineage(byKey: ReadonlyMap<string, Doc>, folder: string): { all: Doc[]; chain: string[] } {
  const all: Doc[] = [];
  for (let node = byKey.get(folder); node; node = node.parent ? byKey.get(node.parent as string) : undefined) all.unshift(node);
  const chain: string[] = [];
  for (let i = all.length - 1; i > 0 && all[i]?.strict_reference; i--) chain.unshift(all[i - 1]?.key as string);
  return { all, chain };
}

/** The steps of the address that keeps the keys of the first `keep` key-bearing ancestors. */
export function addressSteps(all: readonly Doc[], chain: readonly string[], keep: number): RouteStep[] {
  const keyed = new Set(chain.slice(0, keep));
  return all.map((c) => ({ alias: c.alias as string, folder: c.key as string, keyed: keyed.has(c.key as string) }));
}

/** An address as text: `/{prefix}/courses/:courses_key/modules/lessons/`. */
export const renderSteps = (prefix: string, steps: readonly RouteStep[]): string =>
  `/${prefix}/${steps.flatMap((s) => (s.keyed ? [s.alias, `:${s.alias}_key`] : [s.alias])).join('/')}/`;
