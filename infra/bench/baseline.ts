import { fork } from 'node:child_process';
import { join } from 'node:path';
import { alive, type Cleanup } from './cleanup.js';

const START_TIMEOUT_MS = 30_000;

/** Starts `baseline-server.ts` as a child process serving these bodies; resolves with its origin. */
export async function startBaseline(cleanup: Cleanup, root: string, bodies: { getOne: string; list: string }): Promise<string> {
  const child = cleanup.child(
    fork(join(root, 'infra', 'bench', 'baseline-server.ts'), [], { cwd: root, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the baseline server did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    child.once('message', (message) => {
      clearTimeout(timer);
      const port = (message as { port?: unknown }).port;
      if (typeof port === 'number') resolve(port);
      else reject(new Error(`unexpected message from the baseline server: ${JSON.stringify(message)}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the baseline server exited with ${code ?? signal} while starting`));
    });
    child.send(bodies);
  });
  if (!alive(child)) throw new Error('the baseline server is not running');
  return `http://127.0.0.1:${port}`;
}
