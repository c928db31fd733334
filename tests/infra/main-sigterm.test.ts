import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { tempDir } from '../support/temp.js';

describe('npm start: SIGTERM', function () {
  this.timeout(60_000);

  it('stops gracefully on SIGTERM: logs stopping and stopped, and exits 0', async () => {
    const dir = tempDir();
    const env = { ...process.env, DATA_DIR: dir, PORT: '0', DELIVERY_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' };
    const child = spawn(process.execPath, ['--import', 'tsx', 'infra/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const deadline = Date.now() + 30_000;
    while (!out.includes('service listening') && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
    const listening = out.split('\n').find((line) => line.includes('service listening'));
    expect(listening, out).to.be.a('string');
    const { management } = JSON.parse(listening ?? '{}') as { management: string };
    expect((await fetch(`${management}/healthz`)).status).to.equal(200);
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code, out).to.equal(0);
    expect(out).to.include('"signal":"SIGTERM"');
    expect(out).to.match(/"msg":"stopped"/);
  });
});
