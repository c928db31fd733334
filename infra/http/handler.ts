import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { ApiHandler, ApiRequest, ApiResult, ApiRoute, StreamOut } from '../../api/handler.js';
import type { Principal } from '../../api/principal.js';
import { urlWith } from '../../api/url-with.js';
import { commandContext, tenancyContext } from './request-context.js';

/** The handler's view of an express request (after authentication and the body parser). */
function apiRequest(req: Request, res: Response): ApiRequest {
  let context: ApiRequest['context'] | undefined;
  let tenancy: ApiRequest['tenancy'] | undefined;
  const principal = res.locals.principal as Principal;
  return {
    params: req.params as Record<string, string>,
    // Express 5 parses the query string again on each read of `req.query`: read once (docs/decisions/0290).
    query: req.query as Record<string, unknown>,
    body: req.body as unknown,
    header: (name) => req.get(name),
    urlWith: (changes) => urlWith(req.originalUrl, `${req.protocol}://${req.get('host') ?? 'localhost'}`, changes),
    principal,
    get context() {
      return (context ??= commandContext(req, principal));
    },
    get tenancy() {
      return (tenancy ??= tenancyContext(req, principal));
    },
  };
}

/** A streamed answer: the head at once, then what the stream writes, with backpressure; the end when it resolves. */
async function writeStream(req: Request, res: Response, stream: NonNullable<ApiResult['stream']>): Promise<void> {
  res.flushHeaders();
  const gone = new Promise<void>((resolve) => {
    res.once('close', resolve);
    req.once('close', resolve);
  });
  const out: StreamOut = {
    get closed() {
      return res.destroyed || res.writableEnded;
    },
    gone,
    async write(text) {
      if (!res.write(text)) await Promise.race([new Promise((resolve) => res.once('drain', resolve)), gone]);
    },
  };
  try {
    await stream(out);
  } finally {
    if (!res.writableEnded) res.end();
  }
}

/** Writes a handler's result with express's own `res.set`, `res.status` and `res.json`. */
async function writeResult(req: Request, res: Response, result: ApiResult): Promise<void> {
  if (result.headers) res.set(result.headers);
  res.status(result.status);
  if (result.stream) await writeStream(req, res, result.stream);
  else if (result.body === undefined) res.end();
  else res.json(result.body);
}

/**
 * The one adaptation of a management handler to express: the parsed request in, the result
 * written out. A thrown error (a rejected promise) goes to express's error middleware.
 */
export function on(handler: ApiHandler): RequestHandler {
  return async (req, res) => writeResult(req, res, await handler(apiRequest(req, res)));
}

/** An express router of `routes`, each through `on`; path parameters of where it is mounted are kept. */
export function routerOf(routes: readonly ApiRoute[]): Router {
  const router = Router({ mergeParams: true });
  for (const route of routes) router[route.method](route.path as string | string[], on(route.handler));
  return router;
}
