import type { RequestHandler } from 'express';
import type { Logger } from '../logger.js';
import type { Interface } from './metrics.js';
import { requestId } from './request-log.js';

/**
 * The request id and log line of `requestLog` (pino-http) without its two child loggers per
 * request, for the management front's thin path (docs/decisions/0216): `X-Request-Id` at once,
 * then, when the answer is finished or the connection closed, one line with the same fields in
 * the same order (`interface`, `req_id`, `req`, `res`, `responseTime`) and the same message and
 * level ('request completed' at info; from status 500, 'request errored' at error with `err`).
 * It sets no `req.log`: nothing on that path logs through it.
 */
export function requestLine(logger: Logger, api: Interface): RequestHandler {
  const log = logger.child({ interface: api });
  return (req, res, next) => {
    const id = requestId(req, res);
    const started = Date.now();
    let done = false;
    const finished = (): void => {
      if (done) return;
      done = true;
      res.removeListener('finish', finished);
      res.removeListener('close', finished);
      const status = res.statusCode;
      const level = status >= 500 ? 'error' : 'info';
      if (!log.isLevelEnabled(level)) return;
      const head = { req_id: id, req: { method: req.method, url: req.originalUrl ?? req.url }, res: { status } };
      const responseTime = Date.now() - started;
      if (status >= 500) log.error({ ...head, err: new Error(`failed with status code ${status}`), responseTime }, 'request errored');
      else log.info({ ...head, responseTime }, 'request completed');
    };
    res.on('finish', finished);
    res.on('close', finished);
    next();
  };
}
