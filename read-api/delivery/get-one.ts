import { notFound } from '../../domain/errors.js';
import type { ReadAnswer } from '../../api/delivery-ask.js';
import { shapeItem, surrogateKeys } from './item.js';
import type { ListContext } from './list.js';
import { requireMethod } from './methods.js';
import type { PopulateContext } from './populate.js';
import { ONE_PARAMETERS, readOptions, refuseUnknownParameters } from './query/read-options.js';
import { ownersOf } from './scope.js';

/**
 * `GET /{prefix}/{collection path}/{key}/`: one published document, with its content, as its
 * JSON text and surrogate keys; throws the refusal (a bad parameter, a method the connection
 * does not allow, an unknown key).
 */
export async function oneAnswer(query: Record<string, unknown>, key: string, { env, api, match, index, routing, readable }: ListContext): Promise<ReadAnswer> {
  const { route } = match;
  requireMethod(route, 'get_one');
  refuseUnknownParameters(query, ONE_PARAMETERS, false);
  const model = routing.model(env);
  const collection = model.collections.get(route.folder);
  const options = readOptions(query, model.locales, collection?.catalog ?? new Map());
  const owners = await ownersOf(index, env, match);
  const doc = await index.get(env, route.folder, key);
  if (!doc || (owners !== null && !owners.includes(doc.owner ?? ''))) throw notFound('resource_not_found', 'Resource');
  const ctx: PopulateContext = { env, api, model, index, options, seen: new Map(), readable };
  const item = await shapeItem(doc, true, collection, ctx);
  return { text: JSON.stringify(item), keys: surrogateKeys(route.folder, [doc], ctx) };
}
