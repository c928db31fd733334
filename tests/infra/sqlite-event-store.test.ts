import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { eventStoreContract } from '../contracts/event-store.contract.js';
import { tempDir } from '../support/temp.js';

describe('EventStore contract: SQLite', () => {
  eventStoreContract(async () => new SqliteEventStore(`${tempDir()}/events.db`));
});
