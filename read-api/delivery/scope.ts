import { notFound } from '../../domain/errors.js';
import type { SearchIndex } from '../../projections/ports.js';
import type { DeliveryRoute } from './routing.js';

export type Match = { readonly route: DeliveryRoute; readonly keys: ReadonlyMap<string, string>; readonly rest: readonly string[] };

/** Matches path segments against one address: aliases in order, a key after each keyed step. */
export function matchRoute(route: DeliveryRoute, segments: readonly string[]): Match | null {
  const keys = new Map<string, string>();
  let i = 0;
  for (const step of route.steps) {
    if (segments[i] !== step.alias) return null;
    i += 1;
    if (step.keyed) {
      const key = segments[i];
      if (key === undefined || key === '' || key.startsWith('_')) return null; // `_` names are endpoints, never keys
      keys.set(step.folder, key);
      i += 1;
    }
  }
  const rest = segments.slice(i);
  return rest.length <= 1 ? { route, keys, rest } : null;
}

const MAX_OWNERS = 10_000;

/**
 * The parent keys a strict-reference address restricts its collection to, or null for
 * no restriction. The keyed ancestors must exist, published, each owned by the one before;
 * a flat level widens the restriction down the chain to every descendant of its last key.
 */
export async function ownersOf(index: SearchIndex, env: string, match: Match): Promise<readonly string[] | null> {
  const { chain, keep } = match.route;
  if (chain.length === 0 || keep === 0) return null;
  let parent: string | null = null;
  for (const folder of chain.slice(0, keep)) {
    const key = match.keys.get(folder) as string;
    const doc = await index.get(env, folder, key);
    if (!doc || (parent !== null && doc.owner !== parent)) throw notFound('resource_not_found', 'Parent resource');
    parent = key;
  }
  let owners: string[] = [parent as string];
  for (const folder of chain.slice(keep)) {
    const next: string[] = [];
    let after: { created_at: string; key: string } | undefined;
    for (;;) {
      const page = await index.list(env, folder, { limit: 100, owners, after });
      next.push(...page.items.map((d) => d.key));
      const last = page.items[page.items.length - 1];
      if (!page.hasMore || !last || next.length >= MAX_OWNERS) break;
      after = { created_at: last.created_at, key: last.key };
    }
    owners = next;
  }
  return owners;
}
