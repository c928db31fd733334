import type { Doc, ReadStore } from '../projections/ports.js';
import { addressSteps, lineage, renderSteps } from './lineage.js';
import { connectionView } from './views.js';

/** A connection as the management API shows it: its fields plus `flat_routes` for strict collections. */
export async function connectionDetails(deps: { readStore: ReadStore }, env: string, doc: Doc): Promise<Record<string, unknown>> {
  const view = connectionView(doc);
  const collections = await deps.readStore.collection('collections').find({ env });
  const { all, chain } = lineage(new Map(collections.map((c) => [c.key as string, c])), doc.folder as string);
  if (chain.length === 0) return view;
  const api = await deps.readStore.collection('apis').get(doc.api as string);
  const prefix = (api?.prefix as string | undefined) ?? '';
  const levels = (doc.unscoped_levels as number[] | undefined) ?? [];
  const methods = (doc.allowed_methods as string[] | undefined) ?? [];
  const readable = methods.includes('get_many') || methods.includes('get_one');
  const published = (doc.unscoped_ancestors as string[] | undefined) ?? [];
  const stale = levels.length > 0 && published.join('/') !== chain.join('/');
  return {
    ...view,
    flat_routes: chain.map((_, level) => ({
      path: renderSteps(prefix, addressSteps(all, chain, level)),
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
