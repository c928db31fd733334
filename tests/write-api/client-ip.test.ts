import { expect } from 'chai';
import express from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { clientIp } from '../../write-api/context.js';

/** What clientIp and express's req.ip give for one request to an app with `trust` as its `trust proxy` setting. */
async function both(trust: unknown, headers: Record<string, string>): Promise<{ ours: string | null; express: string | null }> {
  const app = express();
  if (trust !== undefined) app.set('trust proxy', trust);
  app.get('/', (req, res) => void res.json({ ours: clientIp(req), express: req.ip ?? null }));
  const server = await new Promise<Server>((resolve) => {
    const s = createServer(app).listen(0, '127.0.0.1', () => resolve(s));
  });
  try {
    const r = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { headers });
    return (await r.json()) as { ours: string | null; express: string | null };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("clientIp: the caller's address of a write's metadata (docs/decisions/0290)", () => {
  it('is the socket address, as req.ip, when proxies are not trusted, whatever X-Forwarded-For says', async () => {
    const r = await both(undefined, { 'x-forwarded-for': '203.0.113.7, 198.51.100.2' });
    expect(r.ours).to.equal(r.express);
    expect(r.ours).to.match(/127\.0\.0\.1$/);
  });

  it("follows express's req.ip when the app trusts proxies", async () => {
    const r = await both(true, { 'x-forwarded-for': '203.0.113.7, 198.51.100.2' });
    expect(r).to.deep.equal({ ours: '203.0.113.7', express: '203.0.113.7' });
  });
});
