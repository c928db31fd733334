import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Principal } from '../../api/principal.js';
import { commandContext } from '../../write-api/context.js';
import { tenancyContext } from '../../write-api/tenancy-context.js';
import type { ApiHandler, ApiRequest, ApiResult, ApiRoute } from '../../write-api/handler.js';

/** The handler's view of an express request (after authentication and the body parser). */
export function apiRequest(req: Request, res: Response): ApiRequest {
  let context: ApiRequest['context'] | undefined;
  let tenancy: ApiRequest['tenancy'] | undefined;
  return {
    params: req.params as Record<string, string>,
    // Express 5 parses the query string again on each read of `req.query`: read once (docs/decisions/0290).
    query: req.query as Record<string, unknown>,
    body: req.body as unknown,
    header: (name) => req.get(name),
    principal: res.locals.principal as Principal,
    get context() {
      return (context ??= commandContext(req, res));
    },
    get tenancy() {
      return (tenancy ??= tenancyContext(req, res));
    },
  };
}

/** Writes a handler's result with express's own `res.set`, `res.status` and `res.json`. */
export function writeResult(res: Response, result: ApiResult): void {
  if (result.headers) res.set(result.headers);
  res.status(result.status);
  if (result.body === undefined) res.end();
  else res.json(result.body);
}

/**
 * The one adaptation of a management handler to express: the parsed request in, the result
 * written out. A thrown error (a rejected promise) goes to express's error middleware.
 */
export function on(handler: ApiHandler): RequestHandler {
  return async (req, res) => writeResult(res, await handler(apiRequest(req, res)));
}

/** An express router of `routes`, each through `on`; path parameters of where it is mounted are kept. */
export function routerOf(routes: readonly ApiRoute[]): Router {
  const router = Router({ mergeParams: true });
  for (const route of routes) router[route.method](route.path as string | string[], on(route.handler));
  return router;
}
