import type { Doc, ReadStore } from '../projections/ports.js';
import { connectionView } from './views.js';

/** The collection and its key-bearing ancestors (root first), from the collection read model. */
async function strictLineage(store: ReadStore, folder: string): Promise<{ target: Doc | null; chain: Doc[]; all: Doc[] }> {
  const collections = store.collection('collections');
  const target = await collections.get(folder);
  const all: Doc[] = [];
  for (let node = target; node; node = node.parent ? await collections.get(node.parent as string) : null) all.unshift(node);
  const chain: Doc[] = [];
  for (let i = all.length - 1; i > 0 && all[i]?.strict_reference; i--) chain.unshift(all[i - 1] as Doc);
  return { target, chain, all };
}

/**
 * The delivery address of a collection with the keys of the first `keep` key-bearing
 * ancestors: `keep` = chain length is the scoped route, fewer keys are the flat levels.
 */
function render(prefix: string, all: readonly Doc[], chain: readonly Doc[], keep: number): string {
  const keyed = new Set(chain.slice(0, keep).map((c) => c.key as string));
  const parts = all.flatMap((c) => (keyed.has(c.key as string) ? [c.alias as string, `:${c.alias as string}_key`] : [c.alias as string]));
  return `/${prefix}/${parts.join('/')}/`;
}

/** A connection as the management API shows it: its fields plus `flat_routes` for strict collections. */
export async function connectionDetails(deps: { readStore: ReadStore }, _env: string, doc: Doc): Promise<Record<string, unknown>> {
  const view = connectionView(doc);
  const { chain, all } = await strictLineage(deps.readStore, doc.folder as string);
  if (chain.length === 0) return view;
  const api = await deps.readStore.collection('apis').get(doc.api as string);
  const prefix = (api?.prefix as string | undefined) ?? '';
  const levels = (doc.unscoped_levels as number[] | undefined) ?? [];
  const methods = (doc.allowed_methods as string[] | undefined) ?? [];
  const readable = methods.includes('get_many') || methods.includes('get_one');
  const live = chain.map((c) => c.key as string);
  const published = (doc.unscoped_ancestors as string[] | undefined) ?? [];
  const stale = levels.length > 0 && published.join('/') !== live.join('/');
  return {
    ...view,
    flat_routes: live.map((_, level) => ({
      path: render(prefix, all, chain, level),
      level,
      enabled: levels.includes(level) && readable && !stale,
      reason: !readable
        ? 'the connection allows neither get_many nor get_one'
        : stale
          ? 'the ancestor chain changed; publish the levels again with the live chain'
          : levels.includes(level)
            ? null
            : 'not listed in unscoped_levels',
    })),
  };
}
