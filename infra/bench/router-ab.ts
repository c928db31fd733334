// The delivery router A/B (docs/decisions/0370): `npx tsx infra/bench/router-ab.ts [body bytes]`.
// Starts the bare node:http baseline and both router-ab-server.ts variants, each in its own
// process, and measures a get-one of the same bytes against each with the bench's load
// (BENCH_SECONDS, BENCH_CONNECTIONS), in alternating rounds; prints each as a ratio to the
// baseline of the same run.
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBaseline } from './baseline.js';
import { Cleanup } from './cleanup.js';
import { measure, type Measurement } from './load.js';
import { benchOptions } from './options.js';
import { table, type Row } from './table.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function start(cleanup: Cleanup, kind: string, body: string): Promise<string> {
  const child = cleanup.child(fork(join(ROOT, 'infra', 'bench', 'router-ab-server.ts'), [kind], { cwd: ROOT, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  const port = await new Promise<number>((resolve) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.send({ body });
  });
  return `http://127.0.0.1:${port}`;
}

async function main(): Promise<void> {
  const o = benchOptions();
  const size = Number(process.argv[2] ?? 700);
  const body = JSON.stringify({ key: 'k', data: { text: 'x'.repeat(Math.max(0, size - 30)) } });
  const cleanup = new Cleanup(ROOT);
  try {
    const origins = {
      bare: await startBaseline(cleanup, ROOT, { getOne: body, list: body }),
      express: await start(cleanup, 'express', body),
      'find-my-way': await start(cleanup, 'find-my-way', body),
    };
    let n = 0;
    const path = () => `/env/api/posts/k${n++ % 2000}/`;
    const rows: Row[] = [];
    for (let round = 0; round < 2; round++) {
      const bare: Measurement = await measure(cleanup, { name: `bare http (round ${round})`, origin: origins.bare, path }, o);
      for (const kind of round % 2 === 0 ? (['express', 'find-my-way'] as const) : (['find-my-way', 'express'] as const)) {
        rows.push({ m: await measure(cleanup, { name: `${kind} (round ${round})`, origin: origins[kind], path }, o), baseline: bare });
      }
      rows.push({ m: bare });
    }
    console.log(`get-one of ${Buffer.byteLength(body)} bytes, ${o.connections} connections, ${o.seconds} s each`);
    console.log(table(rows));
  } finally {
    await cleanup.run();
  }
}

void main();
