import { IncomingMessage, ServerResponse, type ServerOptions } from 'node:http';
import type { Express } from 'express';

/**
 * Node's request and response classes whose prototypes lead to the express app's own
 * (`app.request`, `app.response`), for the HTTP server of a listener that hands requests to
 * express handlers: the objects are made with express's methods and getters from the start,
 * so neither express nor the management front has to change their prototype on each request
 * (`Object.setPrototypeOf` of a new request cost about 2 µs; docs/decisions/0290). A request
 * the express app itself handles is set to `app.request` as before.
 */
export function expressServerOptions(app: Express): ServerOptions {
  const express = app as unknown as { request: object; response: object };
  class AppRequest extends IncomingMessage {}
  class AppResponse extends ServerResponse {}
  Object.setPrototypeOf(AppRequest.prototype, express.request);
  Object.setPrototypeOf(AppResponse.prototype, express.response);
  return { IncomingMessage: AppRequest, ServerResponse: AppResponse as ServerOptions['ServerResponse'] };
}
