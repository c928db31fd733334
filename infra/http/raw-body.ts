import bodyParser from 'body-parser';
import type { RequestHandler } from 'express';
import { JSON_TYPES } from './json-only.js';

/** Keeps the bytes the JSON parser read: a Secure signature covers the raw body. */
const keepRawBody = (req: unknown, _res: unknown, buffer: Buffer): void => {
  (req as { rawBody?: Buffer }).rawBody = buffer;
};

/** The JSON body parser of both interfaces (body-parser, as express.json is; `application/json` and `+json` types), keeping the raw bytes. */
export const jsonBody = (limit: string): RequestHandler => bodyParser.json({ limit, strict: false, type: JSON_TYPES, verify: keepRawBody }) as RequestHandler;

/**
 * Runs the parser but keeps a body that does not parse as `res.locals.bodyError` instead of
 * failing at once: authentication reports it only after the caller is known, so an
 * unauthenticated request still gets its 401.
 */
export function deferBodyErrors(parser: RequestHandler): RequestHandler {
  return (req, res, next) =>
    parser(req, res, (error?: unknown) => {
      if (error) res.locals.bodyError = error;
      next();
    });
}

/** For a `Secure` request the body is read before authentication, because the signature covers it. */
export function secureBodyFirst(parser: RequestHandler): RequestHandler {
  const deferred = deferBodyErrors(parser);
  return (req, res, next) => (/^secure\s/i.test(req.get('authorization') ?? '') ? deferred(req, res, next) : next());
}
