// A text search thread that dies on its first search, as a crashed one would (tests/infra/sqlite-text-search-thread.test.ts).
import { parentPort } from 'node:worker_threads';

parentPort!.on('message', () => process.exit(3));
