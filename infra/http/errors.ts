import type { ErrorRequestHandler, RequestHandler } from 'express';
import { DomainError } from '../../domain/errors.js';

/** The one map from error code to HTTP status (specification, Errors). Codes not listed are 422. */
const STATUS: Readonly<Record<string, number>> = {
  authentication_failed: 401,
  authentication_required: 401,
  permission_denied: 403,
  access_denied: 403,
  collection_not_writable: 403,
  environment_disabled: 403,
  environment_protected: 403,
  plan_limit_exceeded: 403,
  plan_exhausted: 402,
  spend_cap_reached: 402,
  rate_limited: 429,
  environment_not_found: 404,
  api_not_found: 404,
  collection_not_found: 404,
  resource_not_found: 404,
  revision_not_found: 404,
  component_not_found: 404,
  version_not_found: 404,
  source_version_not_found: 404,
  schema_not_found: 404,
  project_not_found: 404,
  public_key_not_found: 404,
  route_not_found: 404,
  webhook_not_found: 404,
  delivery_not_found: 404,
  schedule_not_found: 404,
  not_found: 404,
  external_id_conflict: 409,
  revision_number_conflict: 409,
  component_sync_conflict: 409,
  revision_precondition_failed: 412,
  unsupported_media_type: 415,
  // A delivery list or search past its time budget (docs/decisions/0339); Retry-After set below.
  service_unavailable: 503,
};

const TOP_LEVEL_DETAIL = new Set(['plan_exhausted', 'spend_cap_reached']);

export const statusOf = (code: string): number => STATUS[code] ?? 422;

/** The error code each refused response was answered with, for the refusals metric (infra/observability/http-metrics.ts). */
const answeredCodes = new WeakMap<object, string>();
export const errorCodeOf = (res: object): string | undefined => answeredCodes.get(res);

/** Failures of express's own body parser, as the specification's codes. */
function parserError(error: { type?: unknown; status?: unknown }): DomainError | null {
  if (error.type === 'entity.too.large') return new DomainError('json_size_exceeded', 'The request body is too large.');
  if (error.type === 'entity.parse.failed') return new DomainError('validation_error', 'The request body is not valid JSON.');
  // The router's decoding of a path parameter (`%ZZ`): the path is at fault, not the body.
  if (error instanceof URIError) return new DomainError('validation_error', 'The request path is not valid percent-encoding.');
  if (typeof error.status === 'number' && error.status >= 400 && error.status < 500) {
    return new DomainError('validation_error', 'The request body cannot be read.');
  }
  return null;
}

/** The request id (set by the front router as `X-Request-Id`) at the end of an error message: the envelope keeps its three keys (docs/decisions/0110). */
function withRequestId(message: string, id: unknown): string {
  return typeof id === 'string' ? `${message} (request id: ${id})` : message;
}

/** A failed request's answer: its status, extra headers and `{message, error_code, detail}` envelope. */
export type ErrorAnswer = { readonly status: number; readonly code: string; readonly headers: Record<string, string>; readonly body: Record<string, unknown> };

/** The answer of a failure on either interface; what is not a refusal (a 500) is logged with the request id. */
export function errorAnswer(error: unknown, requestId: unknown, log: (message: string, error: unknown) => void): ErrorAnswer {
  const known = error instanceof DomainError ? error : parserError(error as { type?: unknown; status?: unknown });
  if (known) {
    // 402 bodies also carry their detail fields at the top level, where client libraries read them.
    const top = TOP_LEVEL_DETAIL.has(known.code) ? known.detail : null;
    const headers: Record<string, string> = {};
    if (known.code === 'service_unavailable' && typeof known.detail?.retry_after === 'number') headers['Retry-After'] = String(known.detail.retry_after);
    const body = { ...top, message: withRequestId(known.message, requestId), error_code: known.code, detail: known.detail };
    return { status: known.status ?? statusOf(known.code), code: known.code, headers, body };
  }
  log(typeof requestId === 'string' ? `unhandled error in request ${requestId}` : 'unhandled error', error);
  return { status: 500, code: 'internal_error', headers: {}, body: { message: withRequestId('Internal server error.', requestId), error_code: 'internal_error', detail: null } };
}

/** Records the error code a response was answered with, for the refusals metric. */
export const answeredWith = (res: object, code: string): void => void answeredCodes.set(res, code);

export function errorMiddleware(log: (message: string, error: unknown) => void): ErrorRequestHandler {
  return (error: unknown, _req, res, _next) => {
    const answer = errorAnswer(error, res.getHeader('x-request-id'), log);
    if (answer.status !== 500) answeredWith(res, answer.code);
    res.set(answer.headers).status(answer.status).json(answer.body);
  };
}

export const notFoundRoute =
  (code: string): RequestHandler =>
  (_req, _res, next) =>
    next(new DomainError(code, 'No such endpoint.'));
