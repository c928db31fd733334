import { SqliteReadStore } from '../../infra/sqlite/read-store.js';
import { readStoreContract, transactionalReadStoreContract } from '../contracts/read-store.contract.js';
import { tempDir } from '../support/temp.js';

describe('ReadStore contract: SQLite', () => {
  readStoreContract(async () => new SqliteReadStore(`${tempDir()}/read.db`));
  transactionalReadStoreContract(async () => new SqliteReadStore(`${tempDir()}/read.db`));
});
