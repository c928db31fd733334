import { expect } from 'chai';
import express, { type Request } from 'express';
import { createServer, IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expressServerOptions } from '../../infra/http/express-classes.js';
import { managementFront } from '../../infra/http/management-front.js';

/** Starts `listener` on 127.0.0.1 with the app's request and response classes. */
async function serve(app: express.Express, listener: (req: never, res: never) => void): Promise<{ server: Server; origin: string }> {
  const server = await new Promise<Server>((resolve) => {
    const s = createServer(expressServerOptions(app), listener as never).listen(0, '127.0.0.1', () => resolve(s));
  });
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('HTTP server classes with the express app prototypes (docs/decisions/0290)', () => {
  const servers: Server[] = [];
  after(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
  });

  it("makes requests and responses that are node's and have the app's methods without a prototype change", async () => {
    const app = express();
    const seen: { request: object | null; node: boolean; viaApp: boolean }[] = [];
    const front = managementFront(
      app,
      { app: [], env: [], error: (error, _req, res) => void res.status(500).json({ message: String(error) }) },
      [
        {
          method: 'POST',
          path: /^\/v1\/([^/]+)\/things\/$/,
          params: ['env'],
          handler: (req, res) => {
            seen.push({ request: Object.getPrototypeOf(Object.getPrototypeOf(req) as object) as object, node: req instanceof IncomingMessage, viaApp: false });
            res.status(201).set('X-Env', (req as Request).params.env).json({ wait: req.query.wait, path: req.path });
          },
        },
      ],
    );
    app.get('/plain', (req, res) => {
      seen.push({ request: Object.getPrototypeOf(req) as object, node: req instanceof IncomingMessage, viaApp: true });
      res.json({ q: req.query.q });
    });
    const { server, origin } = await serve(app, front);
    servers.push(server);

    const thin = await fetch(`${origin}/v1/e1/things/?wait=false`, { method: 'POST' });
    expect(thin.status).to.equal(201);
    expect(thin.headers.get('x-env')).to.equal('e1');
    expect(await thin.json()).to.deep.equal({ wait: 'false', path: '/things/' });
    expect(front.thin()).to.equal(1);

    const plain = await fetch(`${origin}/plain?q=x`);
    expect(plain.status).to.equal(200);
    expect(await plain.json()).to.deep.equal({ q: 'x' });

    const appRequest = (app as unknown as { request: object }).request;
    // The thin path kept the class the server made (whose prototype's prototype is the app's);
    // the express app set its own prototype, as it always did.
    expect(seen).to.deep.equal([
      { request: appRequest, node: true, viaApp: false },
      { request: appRequest, node: true, viaApp: true },
    ]);
  });

  it('still gives a request made by a plain server the app prototypes on the thin path', async () => {
    const app = express();
    const front = managementFront(app, { app: [], env: [], error: (_e, _q, res) => void res.status(500).end() }, [
      { method: 'GET', path: /^\/v1\/([^/]+)\/x\/$/, params: ['env'], handler: (req, res) => void res.json({ q: req.query.q, ip: typeof req.ip }) },
    ]);
    const server = await new Promise<Server>((resolve) => {
      const s = createServer(front as never).listen(0, '127.0.0.1', () => resolve(s));
    });
    servers.push(server);
    const r = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/e/x/?q=1`);
    expect(await r.json()).to.deep.equal({ q: '1', ip: 'string' });
  });
});
