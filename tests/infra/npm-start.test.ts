import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort } from '../support/child-service.js';
import { tempDir } from '../support/temp.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether something accepts connections on the port. */
const listening = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/** The pids of every descendant of `pid`, from /proc. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const walk = (p: number) => (children.get(p) ?? []).forEach((c) => (found.push(c), walk(c)));
  walk(pid);
  return found;
}

const alive = (pid: number): boolean => existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');

type Started = { npm: ChildProcess; output: () => string; ports: { port: number; deliveryPort: number }; firstHealth: { bootstrapExisted: boolean }; readyMs: number };

/** `npm start` as a child on `dataDir`: waits for /healthz (noting whether bootstrap.json was there at its first 200), then for /readyz. */
async function npmStart(dataDir: string): Promise<Started> {
  const ports = { port: await freePort(), deliveryPort: await freePort() };
  const env = { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(ports.port), DELIVERY_PORT: String(ports.deliveryPort), LOG_LEVEL: 'info' };
  const started = performance.now();
  const npm = spawn('npm', ['start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  npm.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  npm.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const deadline = Date.now() + 240_000; // a stale build compiles first
  let firstHealth: { bootstrapExisted: boolean } | null = null;
  for (;;) {
    if (npm.exitCode !== null || Date.now() > deadline) throw new Error(`npm start did not get ready:\n${out}`);
    if (!firstHealth) {
      const health = await fetch(`http://127.0.0.1:${ports.port}/healthz`).catch(() => null);
      if (health?.status === 200) firstHealth = { bootstrapExisted: existsSync(join(dataDir, 'bootstrap.json')) };
    }
    if (firstHealth) {
      const ready = await fetch(`http://127.0.0.1:${ports.deliveryPort}/readyz`).catch(() => null);
      if (ready?.status === 200) return { npm, output: () => out, ports, firstHealth, readyMs: performance.now() - started };
    }
    await sleep(20);
  }
}

/** Sends `signal` to npm's own pid and waits until npm and everything it started are gone and neither port accepts connections. */
async function stopAndCheck(s: Started, signal: NodeJS.Signals): Promise<void> {
  const below = descendants(s.npm.pid!);
  expect(below.length, 'npm start runs the service as its child').to.be.greaterThan(0);
  const exited = new Promise((resolve) => s.npm.once('exit', resolve));
  process.kill(s.npm.pid!, signal);
  await exited;
  const deadline = Date.now() + 20_000;
  while (below.some(alive) && Date.now() < deadline) await sleep(50);
  expect(below.filter(alive), `processes left behind after ${signal}:\n${s.output()}`).to.deep.equal([]);
  expect(await listening(s.ports.port)).to.equal(false);
  expect(await listening(s.ports.deliveryPort)).to.equal(false);
  expect(s.output()).to.match(/"msg":"stopped"/);
}

describe('npm start: lifecycle (bootstrap before listening, SIGTERM and Ctrl-C to npm)', function () {
  this.timeout(300_000);
  const dataDir = tempDir();

  it('writes bootstrap.json before /healthz answers, and a SIGTERM to npm leaves no process and no port behind', async () => {
    const s = await npmStart(dataDir);
    expect(s.firstHealth.bootstrapExisted).to.equal(true);
    const ready = await (await fetch(`http://127.0.0.1:${s.ports.port}/readyz`)).json();
    expect(ready).to.include({ status: 'ready', bootstrapped: true });
    await stopAndCheck(s, 'SIGTERM');
  });

  it('restarts on the same data directory and stops on SIGINT (Ctrl-C) the same way', async () => {
    const s = await npmStart(dataDir);
    expect(s.output()).to.not.include('First start');
    await stopAndCheck(s, 'SIGINT');
  });
});
