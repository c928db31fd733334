import { expect } from 'chai';
import express from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expressServerOptions } from '../../infra/http/management-app.js';
import { routerOf } from '../../infra/http/handler.js';
import type { ApiRequest } from '../../api/handler.js';

/** An app with one mounted route list, a fake principal, and an error handler that shows what reached it. */
async function serve(seen: ApiRequest[]): Promise<{ origin: string; server: Server }> {
  const app = express();
  app.use(express.json());
  app.use((_req, res, next) => {
    res.locals.principal = { actor_type: 'user', actor: { key: 'u1' }, organization: 'o1', is_admin: true, environment: null };
    next();
  });
  const routes = routerOf([
    {
      method: 'post',
      path: '/:item/',
      handler: async (request) => {
        seen.push(request);
        return { status: 201, body: { item: request.params.item, env: request.context.env, got: request.body }, headers: { ETag: '"r1"' } };
      },
    },
    { method: 'delete', path: '/:item/', handler: async () => ({ status: 204 }) },
    {
      method: 'get',
      path: '/:item/lines/',
      handler: async (request) => ({
        status: 200,
        headers: { 'Content-Type': 'application/x-ndjson; charset=utf-8' },
        stream: async (out) => {
          for (let n = 1; n <= 3 && !out.closed; n += 1) await out.write(`${JSON.stringify({ n, item: request.params.item })}\n`);
        },
      }),
    },
    {
      method: 'put',
      path: '/:item/',
      handler: async () => {
        throw new Error('refused');
      },
    },
  ]);
  app.use('/v1/:env/things', routes);
  app.use(((error, _req, res, _next) => void res.status(599).json({ message: (error as Error).message })) as express.ErrorRequestHandler);
  const server = createServer(expressServerOptions(app), app);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('management handlers as functions of their input (infra/http/handler.ts)', () => {
  it('gives the handler the parsed request with the mount path parameters and writes its status, body and headers', async () => {
    const seen: ApiRequest[] = [];
    const { origin, server } = await serve(seen);
    try {
      const created = await fetch(`${origin}/v1/e1/things/a1/?wait=true`, { method: 'POST', headers: { 'content-type': 'application/json', 'if-match': '"x"' }, body: JSON.stringify({ n: 1 }) });
      expect(created.status).to.equal(201);
      expect(created.headers.get('etag')).to.equal('"r1"');
      expect(created.headers.get('content-type')).to.equal('application/json; charset=utf-8');
      expect(await created.json()).to.deep.equal({ item: 'a1', env: 'e1', got: { n: 1 } });
      const [request] = seen;
      expect(request?.query).to.deep.equal({ wait: 'true' });
      expect(request?.header('if-match')).to.equal('"x"');
      expect(request?.principal.organization).to.equal('o1');
      expect(request?.context.metadata.actor).to.deep.equal({ key: 'u1' });

      const deleted = await fetch(`${origin}/v1/e1/things/a1/`, { method: 'DELETE' });
      expect([deleted.status, await deleted.text()]).to.deep.equal([204, '']);
    } finally {
      server.close();
    }
  });

  it('writes a streamed result: the head, each chunk the stream writes, and the end when it resolves', async () => {
    const { origin, server } = await serve([]);
    try {
      const streamed = await fetch(`${origin}/v1/e1/things/a1/lines/`);
      expect(streamed.status).to.equal(200);
      expect(streamed.headers.get('content-type')).to.equal('application/x-ndjson; charset=utf-8');
      expect((await streamed.text()).trim().split('\n').map((line) => JSON.parse(line) as unknown)).to.deep.equal([1, 2, 3].map((n) => ({ n, item: 'a1' })));
    } finally {
      server.close();
    }
  });

  it('passes a handler that throws to the error middleware, and writes nothing itself', async () => {
    const { origin, server } = await serve([]);
    try {
      const refused = await fetch(`${origin}/v1/e1/things/a1/`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(refused.status).to.equal(599);
      expect(await refused.json()).to.deep.equal({ message: 'refused' });
    } finally {
      server.close();
    }
  });
});
