import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { eventStoreContract } from '../contracts/event-store.contract.js';
import { tempDir } from '../support/temp.js';

describe('EventStore contract: SQLite', () => {
  eventStoreContract(async () => new SqliteEventStore(`${tempDir()}/events.db`));
});

describe('EventStore contract: SQLite, the group commit on its writer thread (docs/decisions/0315)', () => {
  eventStoreContract(async () => new SqliteEventStore(`${tempDir()}/events.db`, { thread: true }));
});
