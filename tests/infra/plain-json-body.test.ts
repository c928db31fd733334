import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { plainJsonBody } from '../../infra/http/plain-json-body.js';

type Seen = { fallback: boolean; body?: unknown; raw?: string; error?: { type?: string; status?: number } };

describe('plainJsonBody: the thin path reads plain JSON bodies itself, and leaves the rest to the full parser', () => {
  let server: Server;
  let origin: string;
  let seen: Seen | null = null;

  before(async () => {
    const parse = plainJsonBody(64, (_req, _res, next) => {
      seen = { fallback: true };
      next();
    });
    server = createServer((req, res) => {
      parse(req as never, res as never, (error?: unknown) => {
        seen ??= { fallback: false };
        const r = req as IncomingMessage & { body?: unknown; rawBody?: Buffer };
        Object.assign(seen, { body: r.body, raw: r.rawBody?.toString('utf8'), error: error as Seen['error'] });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  async function post(body: string, headers: Record<string, string> = { 'content-type': 'application/json' }): Promise<Seen> {
    seen = null;
    await (await fetch(origin, { method: 'POST', body, headers })).text();
    return seen!;
  }

  it('parses a plain JSON body of any JSON value and keeps its bytes', async () => {
    expect(await post('{"a":[1,"é"]}')).to.deep.include({ fallback: false, body: { a: [1, 'é'] }, raw: '{"a":[1,"é"]}', error: undefined });
    expect(await post('"text"', { 'content-type': 'application/json; charset=utf-8' })).to.deep.include({ fallback: false, body: 'text' });
    expect(await post('\ufeff[true]')).to.deep.include({ fallback: false, body: [true] });
  });

  it("gives body-parser's error for a body that does not parse", async () => {
    const seenNow = await post('{"a":');
    expect(seenNow.fallback).to.equal(false);
    expect(seenNow.error).to.include({ type: 'entity.parse.failed', status: 400 });
  });

  it('leaves other types, charsets, empty, too large and chunked bodies to the full parser', async () => {
    expect((await post('{}', { 'content-type': 'application/vnd.x+json' })).fallback).to.equal(true);
    expect((await post('{}', { 'content-type': 'application/json; charset=utf-16' })).fallback).to.equal(true);
    expect((await post('{}', { 'content-type': 'text/plain' })).fallback).to.equal(true);
    expect((await post('')).fallback).to.equal(true);
    expect((await post(JSON.stringify({ a: 'x'.repeat(100) }))).fallback).to.equal(true);
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{}'));
        controller.close();
      },
    });
    seen = null;
    await (await fetch(origin, { method: 'POST', body: stream, headers: { 'content-type': 'application/json' }, duplex: 'half' } as RequestInit)).text();
    expect(seen!.fallback).to.equal(true);
  });
});
