import type { Response } from 'express';

/**
 * `res.status(status).json(body)` for the answer to a write, without express's `send` steps
 * that cannot apply to it (docs/decisions/0290): the apps turn express's body ETag off, a
 * POST, PUT, PATCH or DELETE is never fresh (no 304), and a JSON text needs no charset parsed
 * back out of its content type. The same headers in the same order (`Content-Type`
 * `application/json; charset=utf-8`, then `Content-Length`) and the same bytes. A GET or HEAD,
 * an answer whose content type is already set, or an app with JSON or ETag settings of its
 * own goes through `res.json`.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  const method = res.req.method;
  const app = res.app;
  if (body === undefined || res.getHeader('Content-Type') !== undefined || method === 'GET' || method === 'HEAD' || app.get('etag fn') || app.get('json replacer') || app.get('json spaces') || app.get('json escape')) {
    res.status(status).json(body);
    return;
  }
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (res.getHeader('Transfer-Encoding') === undefined) res.setHeader('Content-Length', String(Buffer.byteLength(text)));
  res.end(text, 'utf8');
}
