import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Express, Request, RequestHandler, Response } from 'express';
import { expressServerOptions } from './express-classes.js';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** A hot route the front runs itself: its method, its full path as a pattern whose groups are `params`, and express's handler of it. */
export type ThinRoute = {
  readonly method: string;
  /** The whole path (no query), from `/v1/`; the first group must be `:env`. */
  readonly path: RegExp;
  readonly params: readonly string[];
  readonly handler: RequestHandler;
};

/** The management app's middleware, as the express app runs it before such a route (management-app.ts). */
export type ManagementPipeline = {
  /** App-level middleware, in the app's order (helmet, request log, metrics, credentials, rate limit, body). */
  readonly app: readonly RequestHandler[];
  /** The `/v1/:env` router's own middleware (environment, its status, the key's role). */
  readonly env: readonly RequestHandler[];
  readonly error: ErrorRequestHandler;
};

export type ManagementFront = Listener & {
  /** Requests the thin path answered since start (the tests check that it runs). */
  readonly thin: () => number;
  /** The HTTP server's request and response classes, already with the app's prototypes (docs/decisions/0290). */
  readonly serverOptions: ReturnType<typeof expressServerOptions>;
};

const SECURE = /^secure\s/i;

/** Express's own rules for what counts as an error passed to `next`. */
const isError = (error: unknown): boolean => error !== undefined && error !== null && error !== false && error !== 'route' && error !== 'router';

/** What express's final handler does when the error handler itself fails: a bare 500, or the socket closed if the answer had begun. */
function finalFailure(res: ServerResponse): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.statusCode = 500;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.end('Internal Server Error');
}

/**
 * The management interface's listener (docs/decisions/0215): a request to one of `routes`
 * runs the same middleware and handler functions as the express app, in the same order, with
 * the request and response objects express would give them, but without walking the app's
 * router (every mounted router's layers, matched one by one). Every other request, and a
 * path the pattern does not take (percent-encoded, another spelling express would accept),
 * goes to the express app itself, as does a `Secure`-signed request.
 */
export function managementFront(app: Express, pipeline: ManagementPipeline, routes: readonly ThinRoute[]): ManagementFront {
  const express = app as unknown as { request: object; response: object };
  let answered = 0;
  /** Each route's whole chain, made once. */
  const stacks = new Map(routes.map((route) => [route, [...pipeline.app, ...pipeline.env, route.handler]]));

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    let route: ThinRoute | undefined;
    let groups: RegExpExecArray | null = null;
    for (const candidate of routes) {
      if (candidate.method !== req.method) continue;
      groups = candidate.path.exec(path);
      if (groups) {
        route = candidate;
        break;
      }
    }
    // A Secure signature is checked against the app's replay guard: such requests go to the app.
    if (!route || !groups || SECURE.test(req.headers.authorization ?? '')) return void (app as unknown as Listener)(req, res);
    answered += 1;
    run(req, res, route, groups, url);
  };

  function run(raw: IncomingMessage, rawRes: ServerResponse, route: ThinRoute, groups: RegExpExecArray, url: string): void {
    // What express's app.handle and router do before the first middleware.
    const req = raw as Request & { res: Response; originalUrl: string; baseUrl: string };
    const res = rawRes as Response & { req: Request };
    req.res = res;
    res.req = req;
    // A server made with `serverOptions` made them with these prototypes already (docs/decisions/0290).
    if (!Object.prototype.isPrototypeOf.call(express.request, req)) Object.setPrototypeOf(req, express.request);
    if (!Object.prototype.isPrototypeOf.call(express.response, res)) Object.setPrototypeOf(res, express.response);
    res.locals = Object.create(null) as Record<string, unknown>;
    req.originalUrl = url;
    req.baseUrl = '';
    req.params = {};
    const params: Record<string, string> = {};
    route.params.forEach((name, i) => (params[name] = groups[i + 1]!));
    const env = params.env!;
    const base = `/v1/${env}`;

    const stack = stacks.get(route)!;
    const envStart = pipeline.app.length;
    let index = 0;
    const next = (error?: unknown): void => {
      if (isError(error)) return fail(error);
      const at = index++;
      if (at === envStart) {
        // Inside the router mounted at `/v1/:env`: its path and parameters, as express sets them.
        req.baseUrl = base;
        req.url = url.slice(base.length);
        req.params = { env };
      }
      if (at === stack.length - 1) req.params = params;
      const layer = stack[at];
      if (!layer) return fail(new Error('the thin path ran out of handlers'));
      callLayer(layer, req, res, next);
    };
    const fail = (error: unknown): void => {
      call(
        () => pipeline.error(error, req, res, () => finalFailure(res)),
        () => finalFailure(res),
      );
    };
    next();
  }

  return Object.assign(listener, { thin: () => answered, serverOptions: expressServerOptions(app) });
}

/** `call` of one middleware, without a closure made for it on every request (docs/decisions/0290). */
function callLayer(layer: RequestHandler, req: Request, res: Response, next: (error?: unknown) => void): void {
  let result: unknown;
  try {
    result = layer(req, res, next);
  } catch (error) {
    next(error ?? new Error('a middleware threw a falsy value'));
    return;
  }
  if (result !== null && typeof result === 'object' && typeof (result as Promise<unknown>).then === 'function') {
    (result as Promise<unknown>).then(undefined, (error: unknown) => next(error ?? new Error('Rejected promise')));
  }
}

/** Calls a middleware as express 5 does: a throw or a rejected promise is passed to `next`. */
function call(invoke: () => unknown, next: (error?: unknown) => void): void {
  let result: unknown;
  try {
    result = invoke();
  } catch (error) {
    next(error ?? new Error('a middleware threw a falsy value'));
    return;
  }
  if (result !== null && typeof result === 'object' && typeof (result as Promise<unknown>).then === 'function') {
    (result as Promise<unknown>).then(undefined, (error: unknown) => next(error ?? new Error('Rejected promise')));
  }
}
