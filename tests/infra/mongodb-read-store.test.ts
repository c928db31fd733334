import { MongoReadStore } from '../../infra/mongodb/read-store.js';
import { readStoreContract } from '../contracts/read-store.contract.js';
import { describeOnMongo } from '../support/mongo.js';

// Standalone MongoDB has no transactions, so transactionalReadStoreContract does not apply.
describeOnMongo('ReadStore contract: MongoDB', (url, database) => readStoreContract(async () => new MongoReadStore(url, database)));
