import { get, json, type ApiRoute } from '../api/handler.js';
import { DomainError } from '../domain/errors.js';
import type { Filter } from '../projections/ports.js';
import type { ReadDeps } from './deps.js';
import { findCollection } from './lookups.js';
import { listPage } from './pagination.js';
import { queryEnum, queryString, param } from '../api/query.js';
import { TREE_MODES, treeFilter } from './tree.js';
import { collectionView } from '../api/views.js';

/** Collections: the tree (or a subtree around `key`) and single lookups by key or path. */
export function collectionsReadRoutes({ readStore }: ReadDeps): ApiRoute[] {
  const collections = () => readStore.collection('collections');
  return [
    get(['/collections/tree/', '/folders/tree/'], async (request) => {
      const env = param(request, 'env');
      const key = queryString(request.query, 'key');
      const mode = queryEnum(request.query, 'mode', TREE_MODES, 'children');
      let filter: Filter = { env };
      if (key !== undefined) {
        const root = await findCollection(readStore, env, key);
        filter = treeFilter({ env }, { id: key, parent: (root.parent as string | null) ?? null, path: root.path as string }, mode);
      }
      return listPage(request, collections(), filter, [['path', 1]], collectionView);
    }),
    get(['/collections/tree/collection/', '/folders/tree/folder/'], async (request) => {
      const env = param(request, 'env');
      const key = queryString(request.query, 'key');
      const path = queryString(request.query, 'path');
      if (key !== undefined) return json(200, collectionView(await findCollection(readStore, env, key)));
      if (path === undefined) throw new DomainError('validation_error', 'Give key or path.', { key: ['key or path is required'] });
      const dotted = path.replace(/\//g, '.').replace(/^\.+|\.+$/g, '');
      const [doc] = await collections().find({ env, path: dotted }, { limit: 1 });
      if (!doc) throw new DomainError('collection_not_found', 'Collection not found.');
      return json(200, collectionView(doc));
    }),
  ];
}
