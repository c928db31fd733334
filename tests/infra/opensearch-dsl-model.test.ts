import { searchIndexQueryContract } from '../contracts/search-index-query.contract.js';
import { DslModelIndex } from '../support/opensearch-dsl-model.js';

// The OpenSearch adapter's query translation, evaluated by a model of the DSL (no server needed).
describe('SearchIndex query contract: the OpenSearch query DSL on an in-memory model', () => {
  searchIndexQueryContract(async () => new DslModelIndex());
});
