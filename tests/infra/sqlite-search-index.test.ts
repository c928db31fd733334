import { SqliteSearchIndex } from '../../infra/sqlite/search-index.js';
import { searchIndexContract, searchIndexOwnerContract } from '../contracts/search-index.contract.js';
import { searchIndexQueryContract } from '../contracts/search-index-query.contract.js';
import { searchQueriesContract } from '../contracts/search-queries.contract.js';
import { tempDir } from '../support/temp.js';

describe('SearchIndex contract: SQLite', () => {
  searchIndexContract(async () => new SqliteSearchIndex(`${tempDir()}/search.db`));
  searchIndexOwnerContract(async () => new SqliteSearchIndex(`${tempDir()}/search.db`));
  describe('queries', () => searchIndexQueryContract(async () => new SqliteSearchIndex(`${tempDir()}/search.db`)));
  describe('search', () => searchQueriesContract(async () => new SqliteSearchIndex(`${tempDir()}/search.db`)));
});
