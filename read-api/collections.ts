import { Router } from 'express';
import { DomainError } from '../domain/errors.js';
import type { Filter } from '../projections/ports.js';
import type { ReadDeps } from './deps.js';
import { findCollection } from './lookups.js';
import { envelope, pageParams } from './pagination.js';
import { queryEnum, queryString, param } from '../api/query.js';
import { TREE_MODES, treeFilter } from './tree.js';
import { collectionView } from '../api/views.js';

/** Collections: the tree (or a subtree around `key`) and single lookups by key or path. */
export function collectionsReadRouter({ readStore }: ReadDeps): Router {
  const router = Router({ mergeParams: true });
  const collections = () => readStore.collection('collections');

  router.get(['/collections/tree/', '/folders/tree/'], async (req, res) => {
    const env = param(req, 'env');
    const page = pageParams(req.query);
    const key = queryString(req.query, 'key');
    const mode = queryEnum(req.query, 'mode', TREE_MODES, 'children');
    let filter: Filter = { env };
    if (key !== undefined) {
      const root = await findCollection(readStore, env, key);
      filter = treeFilter({ env }, { id: key, parent: (root.parent as string | null) ?? null, path: root.path as string }, mode);
    }
    const [count, docs] = await Promise.all([
      collections().count(filter),
      collections().find(filter, { sort: [['path', 1]], skip: page.offset, limit: page.limit }),
    ]);
    res.json(envelope(req, page, count, docs.map(collectionView)));
  });

  router.get(['/collections/tree/collection/', '/folders/tree/folder/'], async (req, res) => {
    const env = param(req, 'env');
    const key = queryString(req.query, 'key');
    const path = queryString(req.query, 'path');
    if (key !== undefined) return res.json(collectionView(await findCollection(readStore, env, key)));
    if (path === undefined) throw new DomainError('validation_error', 'Give key or path.', { key: ['key or path is required'] });
    const dotted = path.replace(/\//g, '.').replace(/^\.+|\.+$/g, '');
    const [doc] = await collections().find({ env, path: dotted }, { limit: 1 });
    if (!doc) throw new DomainError('collection_not_found', 'Collection not found.');
    return res.json(collectionView(doc));
  });

  return router;
}
