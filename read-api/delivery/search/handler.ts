import type { Request, Response } from 'express';
import { urlWith } from '../../pagination.js';
import type { ListContext } from '../list.js';
import { searchAnswer, type SearchDeps } from './answer.js';

export { SEARCH_PARAMETERS, type SearchDeps } from './answer.js';

/**
 * `POST {prefix}/{collection path}/_search`: full text, vector, vector-boosted or hybrid search
 * over the published documents of a collection the connection lets the reader list. Results
 * are shaped as list items are (localized, populated, narrowed to `fields`).
 */
export async function searchCollection(deps: SearchDeps, req: Request, res: Response, context: Omit<ListContext, 'index'>): Promise<void> {
  const text = await searchAnswer(deps, { query: req.query as Record<string, unknown>, body: req.body, urlWith: (changes) => urlWith(req, changes) }, context);
  res.type('application/json').send(text);
}
