import { expect } from 'chai';
import express from 'express';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { CONSOLE_STAMP, isConsoleStale } from '../../infra/cli/build-if-stale.mjs';
import { consoleCsp, consoleRouter } from '../../infra/http/console.js';
import { tempDir } from '../support/temp.js';

async function serve(dir: string): Promise<{ origin: string; server: Server }> {
  const app = express().use(consoleRouter(() => 'http://127.0.0.1:4001', dir));
  app.use((_req, res) => void res.status(404).json({ error_code: 'route_not_found' }));
  const server = createServer(app);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('the console files: served with their CSP, built only when stale', () => {
  it('serves the page with the delivery origin, its assets, a JSON 404 for a missing file and 503 before a build', async () => {
    const dir = tempDir();
    const empty = await serve(dir);
    const before = await fetch(`${empty.origin}/console/`);
    expect(before.status).to.equal(503);
    expect(((await before.json()) as { error_code: string }).error_code).to.equal('console_not_built');
    empty.server.close();

    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<meta name="delivery-origin" content="__DELIVERY_ORIGIN__">');
    writeFileSync(join(dir, 'assets', 'app.js'), 'export {};');
    const built = await serve(dir);
    const page = await fetch(`${built.origin}/console/`);
    expect(page.headers.get('content-security-policy')).to.equal(consoleCsp('http://127.0.0.1:4001'));
    expect(await page.text()).to.equal('<meta name="delivery-origin" content="http://127.0.0.1:4001">');
    expect((await fetch(`${built.origin}/console/assets/app.js`)).status).to.equal(200);
    const missing = await fetch(`${built.origin}/console/assets/none.js`);
    expect([missing.status, ((await missing.json()) as { error_code: string }).error_code]).to.deep.equal([404, 'route_not_found']);
    // Writes are not the console's: they fall through to the interface (here its 404).
    expect((await fetch(`${built.origin}/console/`, { method: 'POST' })).status).to.equal(404);
    built.server.close();
  });

  it('allows scripts, styles and requests from its own origin and the delivery origin only', () => {
    const csp = consoleCsp('http://127.0.0.1:4001');
    expect(csp).to.include("default-src 'self'").and.include("script-src 'self'").and.include("connect-src 'self' http://127.0.0.1:4001");
    expect(csp).not.to.match(/unsafe|\*/);
  });

  it('is stale without a build, and after a console file or the lock file changed', () => {
    const root = tempDir();
    mkdirSync(join(root, 'console', 'src'), { recursive: true });
    mkdirSync(join(root, 'dist', 'console'), { recursive: true });
    const source = join(root, 'console', 'src', 'app.tsx');
    writeFileSync(source, 'x');
    writeFileSync(join(root, 'package-lock.json'), '{}');
    for (const file of [source, join(root, 'package-lock.json')]) utimesSync(file, 1_000, 1_000);
    expect(isConsoleStale(root)).to.equal(true);
    writeFileSync(join(root, CONSOLE_STAMP), 'built');
    utimesSync(join(root, CONSOLE_STAMP), 2_000, 2_000);
    expect(isConsoleStale(root)).to.equal(false);
    utimesSync(source, 3_000, 3_000);
    expect(isConsoleStale(root)).to.equal(true);
    utimesSync(source, 1_000, 1_000);
    utimesSync(join(root, 'package-lock.json'), 3_000, 3_000);
    expect(isConsoleStale(root)).to.equal(true);
  });
});
