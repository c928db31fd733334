// A worker for tests/infra/worker-task.test.ts: answers its workerData doubled (telling it
// first if asked), fails with a SQLite error, or never answers, as asked.
import Database from 'better-sqlite3';
import { workerData } from 'node:worker_threads';
import { answer, tell } from '../../../infra/rebuild/worker-task.js';

const { n, fail, hang, told } = workerData as { n: number; fail?: boolean; hang?: boolean; told?: boolean };
if (hang) setInterval(() => {}, 1000);
else
  await answer(
    (async () => {
      if (told) tell({ first: n });
      if (fail) new Database(':memory:').exec(`SELECT * FROM missing_${n}`);
      return { doubled: n * 2 };
    })(),
  );
