import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../commands/ports.js';
import { seed, send } from '../support/delivery-seed.js';
import { MAX_FIELD_DEPTH } from '../../domain/schema/field-commands.js';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

/** Inputs a fuzzing review found to answer 500, stall the process or freeze the read side. */
describe('HTTP: fuzzing regressions', function () {
  this.timeout(30_000);
  let s: TestService;
  before(async () => (s = await startTestService()));
  after(() => s.stop());

  async function draftVersion(alias: string): Promise<{ folder: string; tree: string; publish: string }> {
    const c = await s.api('POST', v1(s, '/collections/tree/'), { name: alias, alias });
    const versions = v1(s, `/collections/${c.body.key}/model/versions/`);
    const v = await s.api('POST', versions, {});
    return { folder: c.body.key, tree: `${versions}${v.body.key}/schema/tree/`, publish: `${versions}${v.body.key}/publish/` };
  }

  const aliveWrite = async () => {
    const folder = await collectionWithSchema(s, `alive${Math.random().toString(36).slice(2, 8)}`);
    const created = await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title: 'still here' } });
    expect(created.status, 'a wait=true write after the bad input').to.equal(201);
  };

  it('refuses publishing an unpublishable draft with check_valid_drafts=true with 422, not 500', async () => {
    const { folder, tree, publish } = await draftVersion('matchless');
    expect((await s.api('POST', tree, { key: 'f', type: 'array', meta: { items: 'object', match: 'any' } })).status).to.equal(201);
    const other = await collectionWithSchema(s, 'other');
    expect(other).to.be.a('string');
    const draft = await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: {}, mode: 'draft', validate_data: false });
    expect(draft.status).to.equal(201);
    const refused = await s.api('POST', publish, { check_valid_drafts: true });
    expect(refused.status).to.equal(422);
    expect(refused.body.error_code).to.equal('validation_error');
  });

  it(`refuses fields nested deeper than ${MAX_FIELD_DEPTH} levels, and publishes the deepest allowed tree`, async () => {
    const { folder, tree, publish } = await draftVersion('deep');
    let parent: string | null = null;
    for (let level = 1; level <= MAX_FIELD_DEPTH; level++) {
      const type = level % 2 === 0 ? { type: 'array', meta: { items: 'object', match: 'any' } } : { type: 'object' };
      const created = await s.api('POST', tree, { key: `l${level}`, parent, ...type });
      expect(created.status, `level ${level}: ${JSON.stringify(created.body)}`).to.equal(201);
      parent = created.body.path as string;
    }
    const leaf = await s.api('POST', tree, { key: 'leaf', parent, type: 'string' });
    expect(leaf.status).to.equal(422);
    expect(leaf.body.error_code).to.equal('validation_error');
    // The deepest level needs a child for its publish rules: make level 20 an object's string instead.
    const last = await s.api('DELETE', `${tree}field/?path=${parent}`);
    expect(last.status).to.equal(204);
    const parentOfLast = (parent as string).split('.').slice(0, -1).join('.');
    expect((await s.api('POST', tree, { key: 'leaf', parent: parentOfLast, type: 'string' })).status).to.equal(201);
    const published = await s.api('POST', publish, {});
    expect(published.status, JSON.stringify(published.body)).to.equal(200);
    const resource = await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: {} });
    expect(resource.status).to.equal(201);
    await aliveWrite();
  });

  it('validates data against a catastrophic pattern without stalling, and refuses lookaround patterns', async function () {
    // A backtracking engine takes about 2^60 steps on this input; RE2 answers at once.
    this.timeout(10_000);
    const { folder, tree, publish } = await draftVersion('redos');
    expect((await s.api('POST', tree, { key: 's', type: 'string', meta: { pattern: '(a+)+$' } })).status).to.equal(201);
    expect((await s.api('POST', publish, {})).status).to.equal(200);
    const refused = await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { s: `${'a'.repeat(60)}!` } });
    expect(refused.status).to.equal(422);
    expect(refused.body.error_code).to.equal('validation_error');
    const matching = await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { s: `!${'a'.repeat(60)}` } });
    expect(matching.status).to.equal(201);
    const other = await draftVersion('lookaround');
    const lookahead = await s.api('POST', other.tree, { key: 't', type: 'string', meta: { pattern: '(?=a)b' } });
    expect(lookahead.status).to.equal(422);
    expect(lookahead.body.detail, JSON.stringify(lookahead.body)).to.have.property('meta.pattern');
  });

  it('answers an unauthenticated request with a broken body 401 authentication_failed, not 422', async () => {
    const reply = await s.api('POST', v1(s, '/collections/tree/'), '{"name":', { authorization: '' });
    expect(reply.status).to.equal(401);
    expect(reply.body.error_code).to.equal('authentication_failed');
  });

  it('refuses numbers JSON cannot store (1e309) instead of storing null', async () => {
    const folder = await collectionWithSchema(s, 'huge');
    const reply = await s.api('POST', v1(s, `/collections/${folder}/resources/`), '{"data":{"title":"x","views":1e309}}');
    expect(reply.status).to.equal(422);
    expect(reply.body.error_code).to.equal('validation_error');
  });
});

describe('HTTP: a delivery update whose publication loses every race', function () {
  this.timeout(30_000);
  let s: TestService;
  let inner: EventStore;
  let interfere = false;

  /** The real event store, except that while `interfere` is set another writer appends to a resource stream right before each publication. */
  const racing = (store: EventStore): EventStore => {
    inner = store;
    return {
      async appendToStream(stream, events, expected) {
        if (interfere && events.some((e) => e.type === 'RevisionPublished')) {
          const metadata = { actor_type: 'system', actor: null, ip_address: null, referer: null, timestamp: new Date().toISOString() } as const;
          await store.appendToStream(stream, [{ id: randomUUID(), type: 'ResourceUpdated', data: { env: s.env, key: stream.slice('resource-'.length), name: 'other writer' }, metadata }], 'any');
        }
        return store.appendToStream(stream, events, expected);
      },
      readStream: (stream, from) => store.readStream(stream, from),
      readAll: (after, limit) => store.readAll(after, limit),
      subscribeToAll: (after) => store.subscribeToAll(after),
      headPosition: () => store.headPosition(),
      close: () => store.close(),
    };
  };

  before(async () => (s = await startTestService({ PLAN: 'pro' }, undefined, { wrapEventStore: racing })));
  after(() => s?.stop());

  it('answers 409 revision_number_conflict and leaves no draft behind: the revision and its publication are one append', async () => {
    const e = await seed(s, s.env);
    const revisions = async () => (await inner.readStream(`resource-${e.article}`)).filter((x) => x.type === 'RevisionCreated').length;
    const before = await revisions();
    interfere = true;
    let refused;
    try {
      refused = await send(`${e.base}/articles/${e.article}/`, 'PUT', e.simple, { data: { title: 'Lost' } });
    } finally {
      interfere = false;
    }
    expect(refused.status, JSON.stringify(refused.body)).to.equal(409);
    expect(refused.body.error_code).to.equal('revision_number_conflict');
    expect(await revisions(), 'no revision written by the refused update').to.equal(before);
    const updated = await send(`${e.base}/articles/${e.article}/`, 'PUT', e.simple, { data: { title: 'Kept' } });
    expect(updated.status).to.equal(200);
    expect(await revisions()).to.equal(before + 1);
    expect((await send(`${e.base}/articles/${e.article}/`, 'GET')).body.data).to.deep.equal({ title: 'Kept' });
  });
});

describe('HTTP: a create refused for its external_id under a resource limit', function () {
  this.timeout(30_000);
  let s: TestService;
  let events: EventStore;
  before(async () => (s = await startTestService({ PLAN: 'pro', RESOURCE_LIMIT: '1000' }, undefined, { wrapEventStore: (store) => (events = store) })));
  after(() => s?.stop());

  it('answers 409 external_id_conflict writing nothing, not even a slot reserved and released, on management and delivery creates', async () => {
    const e = await seed(s, s.env);
    const folder = (await s.api('GET', v1(s, '/collections/tree/'))).body.results[0].key as string;
    const resources = v1(s, `/collections/${folder}/resources/`);
    expect((await s.api('POST', resources, { data: { title: 'first' }, external_id: 'sku-1' })).status).to.equal(201);
    const head = await events.headPosition();
    const management = await s.api('POST', resources, { data: { title: 'second' }, external_id: 'sku-1' });
    expect(management.status).to.equal(409);
    expect(management.body.error_code).to.equal('external_id_conflict');
    const delivery = await send(`${e.base}/articles/`, 'POST', e.simple, { data: { title: 'third' }, key: 'sku-1' });
    expect(delivery.status).to.equal(409);
    expect(delivery.body.error_code).to.equal('external_id_conflict');
    expect(await events.headPosition(), 'nothing appended by the refused creates').to.equal(head);
    expect((await s.api('POST', resources, { data: { title: 'other' }, external_id: 'sku-2' })).status).to.equal(201);
  });
});
