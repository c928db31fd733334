import { OpenSearchSearchIndex } from '../../infra/opensearch/search-index.js';
import { searchIndexContract, searchIndexOwnerContract } from '../contracts/search-index.contract.js';
import { searchIndexQueryContract } from '../contracts/search-index-query.contract.js';
import { searchQueriesContract } from '../contracts/search-queries.contract.js';
import { OpenSearchModel } from '../support/opensearch-model-server.js';

// The real OpenSearch adapter (unit of work, bulk writes, vector deletes, search requests and the
// reading of their answers) over an in-memory model of the requests it sends (no server here).
describe('SearchIndex contract: the OpenSearch adapter on an in-memory model of its requests', () => {
  const open = async () => new OpenSearchSearchIndex('http://127.0.0.1:1', { prefix: 'm', client: new OpenSearchModel().asClient() });
  searchIndexContract(open);
  searchIndexOwnerContract(open);
  describe('queries', () => searchIndexQueryContract(open, 25));
  describe('search', () => searchQueriesContract(open));
});
