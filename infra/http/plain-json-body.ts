import type { RequestHandler } from 'express';

/** The declared types read here; anything else (another charset, a `+json` type, parameters) goes to the full parser. */
const PLAIN = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);

/** What body-parser passes on for a body that does not parse: errors.ts answers it 422 validation_error. */
const parseFailed = (error: unknown): Error =>
  Object.assign(new SyntaxError(error instanceof Error ? error.message : 'invalid JSON'), { type: 'entity.parse.failed', status: 400, expose: true });

const unreadable = (): Error => Object.assign(new Error('request aborted'), { type: 'request.aborted', status: 400, expose: true });

/**
 * The common case of the JSON body parser, for the management front's thin path
 * (docs/decisions/0216): a body declared `application/json` (or with `charset=utf-8`), with a
 * `Content-Length` from 1 to `limit` bytes, not compressed, is read, kept as `req.rawBody`,
 * decoded as UTF-8 (a leading byte order mark dropped, as body-parser's decoder does) and parsed
 * with `JSON.parse`, any JSON value allowed (`strict: false`). A body that does not parse gets
 * body-parser's error. Every other request (no length, chunked, compressed, another charset or
 * type, an empty or too large body) goes to `fallback`, the express app's parser.
 */
export function plainJsonBody(limit: number, fallback: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const { headers } = req;
    const type = headers['content-type'];
    const length = headers['content-length'];
    if (
      type === undefined ||
      !PLAIN.has(type.toLowerCase()) ||
      headers['content-encoding'] !== undefined ||
      headers['transfer-encoding'] !== undefined ||
      length === undefined ||
      !/^[1-9][0-9]{0,9}$/.test(length) ||
      Number(length) > limit ||
      req.readableEnded
    ) {
      return fallback(req, res, next);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (error?: Error): void => {
      if (done) return;
      done = true;
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('error', onError);
      req.removeListener('close', onClose);
      next(error);
    };
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      size += chunk.length;
    };
    const onEnd = (): void => {
      const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      (req as { rawBody?: Buffer }).rawBody = raw;
      let text = raw.toString('utf8');
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      try {
        req.body = text.length === 0 ? {} : (JSON.parse(text) as unknown);
      } catch (error) {
        return finish(parseFailed(error));
      }
      finish();
    };
    const onError = (): void => finish(unreadable());
    const onClose = (): void => {
      if (!req.complete) finish(unreadable());
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  };
}
