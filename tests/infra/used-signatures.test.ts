import { MongoUsedSignatures } from '../../infra/mongodb/used-signatures.js';
import { SqliteUsedSignatures } from '../../infra/sqlite/used-signatures.js';
import { usedSignaturesContract } from '../contracts/used-signatures.contract.js';
import { describeOnMongo } from '../support/mongo.js';
import { tempDir } from '../support/temp.js';

describe('UsedSignatures contract: SQLite', () => {
  const file = `${tempDir()}/signatures.db`;
  usedSignaturesContract(async () => new SqliteUsedSignatures(file));
});

describeOnMongo('UsedSignatures contract: MongoDB', (url, database) => usedSignaturesContract(async () => new MongoUsedSignatures(url, database)));
