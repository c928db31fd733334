import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { startTestService, type TestService } from '../support/service.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('components over HTTP', () => {
  let s: TestService;
  const v1 = (path: string): string => `/v1/${s.env}${path}`;
  const create = (body: unknown) => s.api('POST', v1('/components/'), body);

  before(async () => {
    s = await startTestService();
  });
  after(async () => s?.stop());

  describe('create and get', () => {
    it('creates a component (201) with every field of the object, and gets it', async () => {
      const r = await create({ name: 'Address', description: 'Postal address' });
      expect(r.status).to.equal(201);
      expect(r.body).to.deep.equal({
        key: r.body.key, name: 'Address', description: 'Postal address', environment: s.env,
        content_type: 'document', created_at: r.body.created_at, current_version: null,
      });
      expect(r.body.key).to.match(/^[a-z0-9]{12}$/);
      expect(r.body.created_at).to.match(ISO);
      const got = await s.api('GET', v1(`/components/${r.body.key}/`));
      expect(got.status).to.equal(200);
      expect(got.body).to.deep.equal(r.body);
    });

    it('defaults the description to empty', async () => {
      const r = await create({ name: 'Plain' });
      expect(r.status).to.equal(201);
      expect(r.body.description).to.equal('');
    });

    it('refuses invalid bodies with 422 validation_error naming the field, and creates nothing', async () => {
      const before = (await s.api('GET', v1('/components/'))).body.count;
      const bad: [unknown, string][] = [
        [{}, 'name'],
        [{ name: '' }, 'name'],
        [{ name: 'n'.repeat(256) }, 'name'],
        [{ name: 5 }, 'name'],
        [{ name: 'X', description: 'd'.repeat(501) }, 'description'],
        [{ name: 'X', description: null }, 'description'],
        [{ name: 'X', content_type: 'document' }, 'content_type'],
        [[], 'body'],
      ];
      for (const [body, field] of bad) {
        const r = await create(body);
        expect(r.status, JSON.stringify(body)).to.equal(422);
        expect(r.body.error_code).to.equal('validation_error');
        expect(r.body.detail, JSON.stringify(body)).to.have.property(field);
      }
      expect((await create({ name: 'n'.repeat(255), description: 'd'.repeat(500) })).status).to.equal(201);
      expect((await s.api('GET', v1('/components/'))).body.count).to.equal(before + 1);
    });

    it('answers 404 component_not_found for an unknown component', async () => {
      const r = await s.api('GET', v1('/components/nope/'));
      expect(r.status).to.equal(404);
      expect(r.body).to.deep.equal({ message: r.body.message, error_code: 'component_not_found', detail: null });
    });
  });

  describe('list', () => {
    const keys: string[] = [];
    const times: string[] = [];
    let other: TestService;

    before(async () => {
      other = await startTestService();
      for (const name of ['One', 'Two', 'Three']) {
        const r = await other.api('POST', `/v1/${other.env}/components/`, { name });
        keys.push(r.body.key);
        times.push(r.body.created_at);
        await pause(5);
      }
    });
    after(async () => other?.stop());

    const list = async (query: string) => {
      const r = await other.api('GET', `/v1/${other.env}/components/${query}`);
      expect(r.status, query).to.equal(200);
      return r.body as { count: number; next: string | null; previous: string | null; results: { key: string }[] };
    };
    const keysOf = (page: { results: { key: string }[] }) => page.results.map((c) => c.key);

    it('lists the environment components oldest first in the envelope, or newest first', async () => {
      const all = await list('');
      expect(all).to.include({ count: 3, next: null, previous: null });
      expect(keysOf(all)).to.deep.equal(keys);
      expect(keysOf(await list('?ordering=-created_at'))).to.deep.equal([...keys].reverse());
      expect(keysOf(await list('?ordering=created_at'))).to.deep.equal(keys);
    });

    it('pages with limit and offset and working next/previous URLs', async () => {
      const first = await list('?limit=2');
      expect(keysOf(first)).to.deep.equal(keys.slice(0, 2));
      expect(first.previous).to.equal(null);
      const second = await other.get(first.next ?? '', { authorization: `Bearer ${other.token}` });
      expect(keysOf(second.body)).to.deep.equal(keys.slice(2));
      expect(second.body.next).to.equal(null);
      expect(keysOf(await list('?offset=1&limit=1'))).to.deep.equal([keys[1]]);
    });

    it('filters by created_at exactly and with gt, gte, lt and lte', async () => {
      const at = encodeURIComponent(times[1] ?? '');
      expect(keysOf(await list(`?created_at=${at}`))).to.deep.equal([keys[1]]);
      expect(keysOf(await list(`?created_at__gt=${at}`))).to.deep.equal([keys[2]]);
      expect(keysOf(await list(`?created_at__gte=${at}`))).to.deep.equal(keys.slice(1));
      expect(keysOf(await list(`?created_at__lt=${at}`))).to.deep.equal([keys[0]]);
      expect(keysOf(await list(`?created_at__lte=${at}`))).to.deep.equal(keys.slice(0, 2));
      expect((await list(`?created_at__gt=${at}&created_at__lt=${at}`)).count).to.equal(0);
    });

    it('refuses an invalid datetime, ordering or limit with 422 validation_error', async () => {
      for (const query of ['?created_at=yesterday', '?created_at__gt=2026-13-45', '?created_at__lte=1', '?ordering=name', '?limit=0', '?offset=-1']) {
        const r = await other.api('GET', `/v1/${other.env}/components/${query}`);
        expect(r.status, query).to.equal(422);
        expect(r.body.error_code, query).to.equal('validation_error');
      }
    });
  });

  describe('update', () => {
    it('changes the name and keeps the description when it is left out (200)', async () => {
      const c = (await create({ name: 'Before', description: 'kept' })).body;
      const r = await s.api('PUT', v1(`/components/${c.key}/`), { name: 'After' });
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal({ ...c, name: 'After' });
      const both = await s.api('PUT', v1(`/components/${c.key}/`), { name: 'Again', description: '' });
      expect(both.body).to.deep.equal({ ...c, name: 'Again', description: '' });
      expect((await s.api('GET', v1(`/components/${c.key}/`))).body).to.deep.equal(both.body);
    });

    it('refuses invalid bodies with 422 validation_error and changes nothing', async () => {
      const c = (await create({ name: 'Stable' })).body;
      for (const body of [{ name: '' }, { name: 'n'.repeat(256) }, { description: 'd'.repeat(501) }, { key: 'x' }, { name: null }]) {
        const r = await s.api('PUT', v1(`/components/${c.key}/`), body);
        expect(r.status, JSON.stringify(body)).to.equal(422);
        expect(r.body.error_code).to.equal('validation_error');
      }
      expect((await s.api('GET', v1(`/components/${c.key}/`))).body).to.deep.equal(c);
    });

    it('answers 404 component_not_found for an unknown component', async () => {
      const r = await s.api('PUT', v1('/components/nope/'), { name: 'X' });
      expect(r.status).to.equal(404);
      expect(r.body.error_code).to.equal('component_not_found');
    });
  });

  describe('schema versions of a component', () => {
    it('follows publishes in current_version', async () => {
      const c = (await create({ name: 'Versioned' })).body;
      const base = v1(`/components/${c.key}/model/versions/`);
      const publishNew = async () => {
        const v = await s.api('POST', base, { name: 'v' });
        expect(v.status).to.equal(201);
        expect((await s.api('POST', `${base}${v.body.key}/schema/tree/`, { key: 'street', type: 'string' })).status).to.equal(201);
        const p = await s.api('POST', `${base}${v.body.key}/publish/`, {});
        expect(p.status).to.equal(200);
        return v.body.key as string;
      };
      const first = await publishNew();
      expect((await s.api('GET', v1(`/components/${c.key}/`))).body.current_version).to.equal(first);
      const second = await publishNew();
      expect((await s.api('GET', v1(`/components/${c.key}/`))).body.current_version).to.equal(second);
      const listed = (await s.api('GET', v1('/components/'))).body.results.find((x: { key: string }) => x.key === c.key);
      expect(listed.current_version).to.equal(second);
    });

    it('answers 404 component_not_found on the versions of an unknown component', async () => {
      for (const [method, path] of [['GET', '/components/nope/model/versions/'], ['POST', '/components/nope/model/versions/']] as const) {
        const r = await s.api(method, v1(path), method === 'POST' ? {} : undefined);
        expect(r.status, `${method} ${path}`).to.equal(404);
        expect(r.body.error_code).to.equal('component_not_found');
      }
    });
  });

  describe('delete', () => {
    it('deletes (204): the component and its versions are gone', async () => {
      const c = (await create({ name: 'Gone' })).body;
      expect((await s.api('POST', v1(`/components/${c.key}/model/versions/`), {})).status).to.equal(201);
      const r = await s.api('DELETE', v1(`/components/${c.key}/`));
      expect(r.status).to.equal(204);
      expect(r.body).to.equal(null);
      expect((await s.api('GET', v1(`/components/${c.key}/`))).body.error_code).to.equal('component_not_found');
      expect((await s.api('GET', v1(`/components/${c.key}/model/versions/`))).body.error_code).to.equal('component_not_found');
      expect((await s.api('POST', v1(`/components/${c.key}/model/versions/`), {})).body.error_code).to.equal('component_not_found');
      const again = await s.api('DELETE', v1(`/components/${c.key}/`));
      expect(again.status).to.equal(404);
      expect(again.body.error_code).to.equal('component_not_found');
    });
  });

  describe('audit', () => {
    it('writes component:create, component:update and component:delete with the metadata of the specification', async () => {
      const c = (await create({ name: 'Audited', description: 'd' })).body;
      const base = v1(`/components/${c.key}/model/versions/`);
      const v = (await s.api('POST', base, {})).body;
      await s.api('POST', `${base}${v.key}/schema/tree/`, { key: 'street', type: 'string' });
      await s.api('POST', `${base}${v.key}/publish/`, {});
      await s.api('PUT', v1(`/components/${c.key}/`), { name: 'Renamed' });
      await s.api('DELETE', v1(`/components/${c.key}/`));
      const r = await s.api('GET', v1(`/events/?entity_type=component&entity_key=${c.key}&ordering=timestamp`));
      expect(r.status).to.equal(200);
      expect(r.body.results.map((e: { event_type: string; metadata: unknown }) => [e.event_type, e.metadata])).to.deep.equal([
        ['create', null],
        ['update', null],
        ['delete', {
          snapshot: {
            name: 'Renamed', description: 'd', content_type: 'document', is_component: true, current_version_key: v.key, nested_schemas: [],
          },
        }],
      ]);
      expect(r.body.results[0]).to.include({ entity_type: 'component', actor_type: 'user' });
      const bySchema = await s.api('GET', v1(`/events/?schema_key=${c.key}`));
      expect(bySchema.body.results.map((e: { entity_type: string }) => e.entity_type)).to.include.members(['component', 'version']);
    });

    it('names the components its published version nests in the delete snapshot\'s nested_schemas', async () => {
      /** A component with a published version of the given fields; returns [component, version]. */
      const published = async (name: string, fields: Record<string, unknown>[]): Promise<[string, string]> => {
        const key = (await create({ name })).body.key as string;
        const base = v1(`/components/${key}/model/versions/`);
        const v = await s.api('POST', base, {});
        for (const field of fields) expect((await s.api('POST', `${base}${v.body.key}/schema/tree/`, field)).status).to.equal(201);
        expect((await s.api('POST', `${base}${v.body.key}/publish/`, {})).status).to.equal(200);
        return [key, v.body.key];
      };
      const [geo, geoV] = await published('Geo', [{ key: 'lat', type: 'number' }]);
      const [address, addressV] = await published('Address', [
        { key: 'street', type: 'string' },
        { key: 'location', type: 'nested', meta: { component: geo, component_version: geoV } },
        { key: 'previous', type: 'nested', meta: { component: geo, component_version: geoV } },
      ]);
      expect((await s.api('DELETE', v1(`/components/${address}/`))).status).to.equal(204);
      const r = await s.api('GET', v1(`/events/?entity_type=component&entity_key=${address}&event_type=delete`));
      expect(r.body.results.map((e: { metadata: unknown }) => e.metadata)).to.deep.equal([{
        snapshot: {
          name: 'Address', description: '', content_type: 'document', is_component: true, current_version_key: addressV, nested_schemas: [geo],
        },
      }]);
    });
  });
});

describe('components over HTTP: the 5,000-component ceiling', function () {
  this.timeout(60_000);

  it('refuses the 5,001st component with 403 plan_limit_exceeded, entity components and no upgrade_url, and accepts one again after a delete', async () => {
    // 4,999 components come straight from the event store, as 4,999 POSTs would have written
    // them (five thousand requests take too long); the 5,000th and the refusal go through HTTP.
    let s = await startTestService();
    const first = await s.api('POST', `/v1/${s.env}/components/`, { name: 'First' });
    expect(first.status).to.equal(201);
    await s.stop();

    const stream = `components-${s.env}`;
    const store = new SqliteEventStore(join(s.dataDir, 'events.db'));
    const [created] = await store.readStream(stream);
    if (!created || created.type !== 'ComponentCreated') throw new Error('no ComponentCreated event');
    const copies = Array.from({ length: 4998 }, (_, i) => ({
      id: randomUUID(),
      type: created.type,
      data: { ...(created.data as object), key: `seeded${i}`, name: `Seeded ${i}`, created_at: new Date(Date.parse(created.metadata.timestamp) + i + 1).toISOString() },
      metadata: created.metadata,
    }));
    await store.appendToStream(stream, copies, created.revision);
    await store.close();

    s = await startTestService({}, s.dataDir);
    try {
      const components = `/v1/${s.env}/components/`;
      expect((await s.api('GET', `${components}?limit=1`)).body.count).to.equal(4999);
      const fiveThousandth = await s.api('POST', components, { name: 'Last' });
      expect(fiveThousandth.status, JSON.stringify(fiveThousandth.body)).to.equal(201);
      const refused = await s.api('POST', components, { name: 'One too many' });
      expect(refused.status).to.equal(403);
      expect(refused.body).to.deep.equal({
        message: refused.body.message, error_code: 'plan_limit_exceeded', detail: { entity: 'components', current: 5000, limit: 5000 },
      });
      expect((await s.api('GET', `${components}?limit=1`)).body.count).to.equal(5000);
      expect((await s.api('DELETE', `${components}seeded0/`)).status).to.equal(204);
      expect((await s.api('POST', components, { name: 'Room again' })).status).to.equal(201);
    } finally {
      await s.stop();
    }
  });
});
