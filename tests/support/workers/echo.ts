// A worker for tests/infra/worker-task.test.ts: answers its workerData doubled, or fails when asked to.
import { parentPort, workerData } from 'node:worker_threads';

const { n, fail, hang } = workerData as { n: number; fail?: boolean; hang?: boolean };
if (fail) throw new Error(`failed on ${n}`);
if (hang) setInterval(() => {}, 1000);
else parentPort?.postMessage({ doubled: n * 2 });
