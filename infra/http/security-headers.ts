import type { OutgoingHttpHeaders } from 'node:http';
import type { RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers helmet sets on every answer, taken once from helmet itself: they depend on its
 * options, never on the request, so both interfaces set the recorded list instead of walking
 * helmet's thirteen middleware per request (docs/decisions/0370).
 */
export function securityHeaders(options?: Readonly<HelmetOptions>): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  const recorder = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)(recorder as never, recorder as never, () => {});
  return headers;
}

/** Express middleware setting helmet's recorded headers (securityHeaders) on every answer. */
export function securityHeadersMiddleware(options?: Readonly<HelmetOptions>): RequestHandler {
  const headers = Object.entries(securityHeaders(options)) as [string, string][];
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}
