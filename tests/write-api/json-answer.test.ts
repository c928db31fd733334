import { expect } from 'chai';
import express, { type Express, type Response } from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendJson } from '../../write-api/json-answer.js';

type Seen = { status: number; headers: string[]; body: string };

/** The raw answer (status, header lines in order but the date, body text) of one request. */
async function raw(origin: string, method: string, path: string): Promise<Seen> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        const headers: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) if (!['Date', 'Connection', 'Keep-Alive'].includes(res.rawHeaders[i]!)) headers.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        resolve({ status: res.statusCode!, headers, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const BODIES: Record<string, unknown> = {
  small: { key: 'abc', name: 'Zoë ✓ "quoted"', n: 1, none: null },
  large: { key: 'big', data: { text: 'ü'.repeat(1500) }, list: [1, 2, 3] },
  array: [{ a: 1 }, 'two'],
};

describe('sendJson: a write answer without express send (docs/decisions/0290)', () => {
  let server: Server;
  let origin: string;
  let app: Express;
  const respond = (answer: (res: Response, body: unknown) => void) => (req: express.Request, res: Response) => {
    res.set('ETag', '"rev1"');
    answer(res, BODIES[req.params.body as string]);
  };

  before(async () => {
    app = express();
    app.set('etag', false);
    app.set('x-powered-by', false);
    for (const method of ['post', 'put', 'get', 'delete'] as const) {
      app[method]('/ours/:body', respond((res, body) => sendJson(res, 201, body)));
      app[method]('/express/:body', respond((res, body) => void res.status(201).json(body)));
    }
    app.post('/typed/:kind', (req, res) => {
      res.type('application/problem+json');
      if (req.params.kind === 'ours') sendJson(res, 202, { a: 1 });
      else res.status(202).json({ a: 1 });
    });
    server = await new Promise<Server>((resolve) => {
      const s = createServer(app).listen(0, '127.0.0.1', () => resolve(s));
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  for (const method of ['POST', 'PUT', 'DELETE', 'GET', 'HEAD']) {
    for (const body of Object.keys(BODIES)) {
      it(`answers ${method} with a ${body} body as res.status().json() does: status, headers in order, bytes`, async () => {
        const ours = await raw(origin, method, `/ours/${body}`);
        const theirs = await raw(origin, method, `/express/${body}`);
        expect(ours).to.deep.equal(theirs);
        expect(ours.status).to.equal(201);
        if (method !== 'HEAD') expect(JSON.parse(ours.body)).to.deep.equal(BODIES[body]);
      });
    }
  }

  it('keeps a content type set before, with its charset, as express does', async () => {
    const ours = await raw(origin, 'POST', '/typed/ours');
    expect(ours).to.deep.equal(await raw(origin, 'POST', '/typed/express'));
    expect(ours.headers).to.include('Content-Type: application/problem+json; charset=utf-8');
  });
});
