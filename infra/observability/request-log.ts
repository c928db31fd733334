import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../logger.js';
import type { Interface } from './metrics.js';

export const REQUEST_ID_HEADER = 'x-request-id';

/** A caller's own id is kept when it is short and plain; anything else is replaced. */
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of a request: the one the caller sent in `X-Request-Id`, or a new UUID. */
export function idOf(req: IncomingMessage): string {
  const sent = req.headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && ACCEPTED_ID.test(sent) ? sent : randomUUID();
}

/** The id of a request (idOf), echoed in the response header. */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const id = idOf(req);
  res.setHeader('X-Request-Id', id);
  return id;
}

/**
 * One pino line per answered request (method, URL, status, time) carrying `req_id`; `req.log`
 * is a child logger with the same id for whatever a handler logs. Headers are not logged
 * (they carry credentials). The id is `req.id`; `genReqId` also echoes it in `X-Request-Id` unless
 * the interface writes that header itself (the delivery server writes each answer's headers at once).
 */
export function requestLog(logger: Logger, api: Interface, genReqId: (req: IncomingMessage, res: ServerResponse) => string = requestId) {
  return pinoHttp({
    logger: logger.child({ interface: api }),
    genReqId,
    customAttributeKeys: { reqId: 'req_id' },
    quietReqLogger: true,
    // The serializers read the request and response themselves: pino-std-serializers' copy of each is not made.
    wrapSerializers: false,
    serializers: {
      req: (req: { method?: string; url?: string; originalUrl?: string }) => ({ method: req.method, url: req.originalUrl ?? req.url }),
      res: (res: { statusCode?: number }) => ({ status: res.statusCode }),
    },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
  });
}
