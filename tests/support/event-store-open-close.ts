// Opens an event store in the directory given, appends nothing, closes it and lets the process
// end by itself: run by tests/infra/sqlite-background-checkpoints.test.ts in a child process,
// which fails if the checkpoint thread keeps the process alive after every store closed.
import { join } from 'node:path';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';

const [dir] = process.argv.slice(2);
if (!dir) throw new Error('usage: event-store-open-close.ts DIR');
const store = new SqliteEventStore(join(dir, 'events.db'));
await store.close();
process.stdout.write('closed\n');
