import express, { type RequestHandler } from 'express';

/** Keeps the bytes the JSON parser read: a Secure signature covers the raw body. */
const keepRawBody = (req: unknown, _res: unknown, buffer: Buffer): void => {
  (req as { rawBody?: Buffer }).rawBody = buffer;
};

/** The JSON body parser of both interfaces, keeping the raw bytes. */
export const jsonBody = (limit: string): RequestHandler => express.json({ limit, strict: false, verify: keepRawBody });

/**
 * For a `Secure` request the body is read before authentication, because the signature
 * covers it; a body that does not parse is reported only after the caller is known
 * (`res.locals.bodyError`), so an unauthenticated request still gets its 401.
 */
export function secureBodyFirst(parser: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (!/^secure\s/i.test(req.get('authorization') ?? '')) return next();
    return parser(req, res, (error?: unknown) => {
      if (error) res.locals.bodyError = error;
      next();
    });
  };
}
