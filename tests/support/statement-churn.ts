// Prepares and drops many statements between I/O callbacks while garbage piles up, so the
// garbage collector finalizes statements outside any JavaScript call: the pattern that aborts
// the process when a better-sqlite3 build on `node::ObjectWrap` runs on Node.js 24.19 or later
// (docs/decisions/0116). Run by tests/infra/sqlite-driver.test.ts in a child process.
import { readFile } from 'node:fs/promises';
import { Database, DRIVER_RELEASE } from '../../infra/sqlite/driver.js';

const db = new Database(':memory:');
db.exec('CREATE TABLE t (a INTEGER)');
for (let round = 0; round < 200; round++) {
  await readFile(new URL(import.meta.url));
  for (let i = 0; i < 500; i++) db.prepare(`SELECT a + ${round * 1000 + i} FROM t`).all();
  const junk: object[] = [];
  for (let j = 0; j < 20_000; j++) junk.push({ j, s: `x${j}` });
  await new Promise((resolve) => setTimeout(resolve, 1));
}
db.close();
process.stdout.write(`ok ${DRIVER_RELEASE}\n`);
