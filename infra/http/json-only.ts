import type { IncomingMessage } from 'node:http';
import typeis from 'type-is';
import { DomainError } from '../../domain/errors.js';

/** Methods whose body is read; a body of any other type must not be silently dropped. */
const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

/** Media types read as JSON: `application/json` and any `+json` suffix type. */
export const JSON_TYPES = ['application/json', '+json'];

const refused = (req: IncomingMessage): DomainError =>
  new DomainError('unsupported_media_type', 'The request body must be JSON (Content-Type: application/json).', {
    content_type: req.headers['content-type'] ?? null,
  });

/** Whether a chunked body without a length holds at least one byte (the stream is read to its end). */
async function streamHoldsBytes(req: IncomingMessage): Promise<boolean> {
  let bytes = 0;
  for await (const chunk of req) bytes += (chunk as Buffer).length;
  return bytes > 0;
}

/**
 * A POST, PUT or PATCH whose non-empty body is not declared as JSON is refused with 415
 * `unsupported_media_type` before anything acts on it (docs/decisions/0034): otherwise the
 * JSON parser skips it and the write runs as if no body had been sent. An empty body stays
 * valid wherever the endpoint allows one. Plain node:http: both interfaces run it.
 */
export function jsonBodiesOnly(req: IncomingMessage, _res: unknown, next: (error?: unknown) => void): void {
  if (!WRITE_METHODS.has(req.method ?? '')) return next();
  const length = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (!chunked && (length === undefined || Number(length) === 0)) return next();
  if (typeis(req, JSON_TYPES)) return next();
  if (!chunked) return next(refused(req));
  streamHoldsBytes(req).then(
    (holds) => next(holds ? refused(req) : undefined),
    (error: unknown) => next(error),
  );
}
