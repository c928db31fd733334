import { expect } from 'chai';
import { join } from 'node:path';
import { START } from '../../commands/ports.js';
import { resourceQuota, type ResourceQuotaEvent } from '../../domain/resource-quota/decider.js';
import { loadConfig } from '../../infra/config.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

/** Every event the service stored, read from its SQLite file after it stopped. */
async function storedEvents(dataDir: string) {
  const store = new SqliteEventStore(join(dataDir, 'events.db'));
  try {
    return await store.readAll(START, 1_000_000);
  } finally {
    await store.close();
  }
}

describe('RESOURCE_LIMIT: resources per environment under an operator-set limit', () => {
  const create = (s: TestService, folder: string, title: string, query = '') =>
    s.api('POST', v1(s, `/collections/${folder}/resources/${query}`), { data: { title } });
  const upsert = (s: TestService, folder: string, externalId: string, title: string) =>
    s.api('PUT', v1(s, `/collections/${folder}/resources/?external_id=${externalId}`), { data: { title } });
  const count = async (s: TestService, folder: string) => (await s.api('GET', v1(s, `/collections/${folder}/resources/`))).body.count as number;

  it('refuses a bad RESOURCE_LIMIT at startup, as PLAN', () => {
    for (const value of ['0', '-1', '2.5', 'many']) {
      expect(() => loadConfig({ RESOURCE_LIMIT: value }), value).to.throw(/RESOURCE_LIMIT must be a positive integer/);
    }
    expect(loadConfig({}).resourceLimit).to.equal(null);
    expect(loadConfig({ RESOURCE_LIMIT: '3' }).resourceLimit).to.equal(3);
  });

  describe('with RESOURCE_LIMIT=3', () => {
    let s: TestService;
    let books: string;
    before(async () => {
      s = await startTestService({ RESOURCE_LIMIT: '3' });
      books = await collectionWithSchema(s, 'books');
    });
    after(async () => s?.stop());

    it('creates three resources, then answers a POST create 422 plan_limit_exceeded with entity, current and limit', async () => {
      expect((await upsert(s, books, 'isbn-1', 'One')).status).to.equal(201);
      expect((await create(s, books, 'Two')).status).to.equal(201);
      expect((await create(s, books, 'Three')).status).to.equal(201);
      const refused = await create(s, books, 'Four');
      expect(refused.status).to.equal(422);
      expect(refused.body).to.deep.equal({
        message: refused.body.message,
        error_code: 'plan_limit_exceeded',
        detail: { entity: 'resources', current: 3, limit: 3 },
      });
      expect(await count(s, books)).to.equal(3);
    });

    it('answers an upsert that would create 403 plan_limit_exceeded, and never refuses a revision of an existing resource', async () => {
      const refused = await upsert(s, books, 'isbn-new', 'New');
      expect(refused.status).to.equal(403);
      expect(refused.body).to.include({ error_code: 'plan_limit_exceeded' });
      expect(refused.body.detail).to.deep.equal({ entity: 'resources', current: 3, limit: 3 });
      expect((await upsert(s, books, 'isbn-1', 'One, again')).status).to.equal(200);
      expect(await count(s, books)).to.equal(3);
    });

    it('frees a slot when a resource is deleted, and a create that fails after reserving keeps none', async () => {
      const list = await s.api('GET', v1(s, `/collections/${books}/resources/`));
      const victim = (list.body.results as { key: string; external_id: string | null }[]).find((r) => r.external_id === null)!;
      expect((await s.api('DELETE', v1(s, `/collections/${books}/resources/${victim.key}/`))).status).to.equal(204);
      const taken = await create(s, books, 'Duplicate external_id', '?external_id=isbn-1');
      expect(taken.status).to.equal(409);
      expect((await create(s, books, 'Four')).status).to.equal(201);
      expect((await create(s, books, 'Five')).status).to.equal(422);
    });

    it('frees the slots of the resources of a deleted collection', async () => {
      expect((await s.api('DELETE', v1(s, `/collections/tree/collection/?key=${books}`))).status).to.equal(204);
      const again = await collectionWithSchema(s, 'books2');
      for (const title of ['A', 'B', 'C']) expect((await create(s, again, title)).status).to.equal(201);
      expect((await create(s, again, 'D')).status).to.equal(422);
    });
  });

  it('gives exactly the free slots to 10 concurrent creates, the rest 422, nothing half-written', async () => {
    const s = await startTestService({ RESOURCE_LIMIT: '3' });
    try {
      const books = await collectionWithSchema(s, 'books');
      expect((await create(s, books, 'Existing')).status).to.equal(201);
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => create(s, books, `Concurrent ${i}`, `?external_id=c-${i}`)));
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((x) => x === 201)).to.have.length(2);
      expect(statuses.filter((x) => x === 422)).to.have.length(8);
      expect(await count(s, books)).to.equal(3);
    } finally {
      await s.stop();
    }
    const events = await storedEvents(s.dataDir);
    const slots = events
      .filter((e) => e.stream === `resourcequota-${s.env}`)
      .map((e) => ({ type: e.type, data: e.data }) as ResourceQuotaEvent)
      .reduce(resourceQuota.evolve, resourceQuota.initialState()).slots;
    const created = events.filter((e) => e.type === 'ResourceCreated').map((e) => (e.data as { key: string }).key);
    expect(Object.keys(slots).sort()).to.deep.equal(created.sort());
  });

  it('seeds the count from the resources of an existing data directory when a limit is configured later', async () => {
    let s = await startTestService();
    const books = await collectionWithSchema(s, 'books');
    for (const title of ['A', 'B']) expect((await create(s, books, title)).status).to.equal(201);
    await s.stop();
    s = await startTestService({ RESOURCE_LIMIT: '3' }, s.dataDir);
    try {
      expect((await create(s, books, 'C')).status).to.equal(201);
      const refused = await create(s, books, 'D');
      expect(refused.status).to.equal(422);
      expect(refused.body.detail).to.deep.equal({ entity: 'resources', current: 3, limit: 3 });
    } finally {
      await s.stop();
    }
  });

  it('counts nothing without RESOURCE_LIMIT: no resourcequota- stream is written', async () => {
    const s = await startTestService();
    const books = await collectionWithSchema(s, 'books');
    const created = await create(s, books, 'A');
    expect((await upsert(s, books, 'x-1', 'B')).status).to.equal(201);
    await s.api('DELETE', v1(s, `/collections/${books}/resources/${created.body.key}/`));
    await s.api('DELETE', v1(s, `/collections/tree/collection/?key=${books}`));
    await s.stop();
    const events = await storedEvents(s.dataDir);
    expect(events.some((e) => e.type === 'ResourceCreated')).to.equal(true);
    expect(events.filter((e) => e.stream.startsWith('resourcequota-'))).to.deep.equal([]);
  });
});
