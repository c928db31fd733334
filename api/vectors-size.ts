import type { SearchIndex } from '../projections/ports.js';

type View = Record<string, unknown> & { readonly key?: unknown; readonly folder?: unknown };

/** A resource view with `vectors_size` from the delivery index: bytes of its stored embeddings and custom vectors. */
export async function withVectorsSize(index: SearchIndex, env: string, view: View): Promise<View> {
  if (typeof view.key !== 'string' || typeof view.folder !== 'string') return view;
  return { ...view, vectors_size: await index.vectorsSize(env, view.folder, view.key) };
}
