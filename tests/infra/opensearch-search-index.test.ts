import { randomUUID } from 'node:crypto';
import { Client } from '@opensearch-project/opensearch';
import { OpenSearchSearchIndex } from '../../infra/opensearch/search-index.js';
import { searchIndexContract, searchIndexOwnerContract } from '../contracts/search-index.contract.js';
import { searchIndexQueryContract } from '../contracts/search-index-query.contract.js';
import { searchQueriesContract } from '../contracts/search-queries.contract.js';

const url = process.env.OPENSEARCH_URL;

describe('SearchIndex contract: OpenSearch', () => {
  if (url) {
    const prefix = `cms-test-${randomUUID().slice(0, 8)}`;
    after(async () => {
      const client = new Client({ node: url });
      try {
        await client.indices.delete({ index: [prefix, `${prefix}-checkpoints`, `${prefix}-search-meta`, `${prefix}-vectors`], ignore_unavailable: true });
      } finally {
        await client.close();
      }
    });
    searchIndexContract(async () => new OpenSearchSearchIndex(url, { prefix }));
    searchIndexOwnerContract(async () => new OpenSearchSearchIndex(url, { prefix }));
    describe('queries', () => searchIndexQueryContract(async () => new OpenSearchSearchIndex(url, { prefix }), 25));
    describe('search', () => searchQueriesContract(async () => new OpenSearchSearchIndex(url, { prefix })));
  } else
    it('runs when OPENSEARCH_URL is set', function () {
      console.log('      skipped: OPENSEARCH_URL is not set (docker compose up opensearch, then OPENSEARCH_URL=http://127.0.0.1:9200)');
      this.skip();
    });
});
