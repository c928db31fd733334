import { expect } from 'chai';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

const inMs = (ms: number): string => new Date(Date.now() + ms).toISOString();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('scheduled publishing', () => {
  let s: TestService;
  let folder: string;
  let api: string;
  const revisions = (resource: string) => v1(s, `/collections/${folder}/resources/${resource}/revisions/`);
  const draft = async (title: string, externalId: string) => {
    const r = await s.api('PUT', v1(s, `/collections/${folder}/resources/?external_id=${externalId}`), { data: { title }, mode: 'draft' });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    const list = await s.api('GET', revisions(r.body.key));
    return { resource: r.body.key as string, revision: list.body.results[0].key as string };
  };
  const delivered = (resource: string) => s.get(`${s.delivery}/${api}/posts/${resource}/`);

  before(async () => {
    s = await startTestService({ PLAN: 'pro' });
    folder = await collectionWithSchema(s, 'posts');
    const created = await s.api('POST', v1(s, '/api/'), { name: 'Site', prefix: 'site' });
    api = created.body.prefix;
    expect((await s.api('POST', v1(s, `/api/${created.body.key}/collections/`), { folder, allowed_methods: ['get_one', 'get_many'] })).status).to.equal(201);
  });
  after(async () => s?.stop());

  it('answers 202 with scheduled_publish_at, lists it, and publishes it at the time as the scheduler', async () => {
    const { resource, revision } = await draft('Tomorrow', 'sched-1');
    const at = inMs(800);
    const r = await s.api('POST', `${revisions(resource)}${revision}/publish/`, { publish_at: at });
    expect(r.status, JSON.stringify(r.body)).to.equal(202);
    expect(r.body).to.include({ key: revision, status: 'draft', scheduled_publish_at: at });
    const listed = await s.api('GET', v1(s, '/schedules/'));
    expect(listed.body.results).to.deep.include({ revision, resource, collection: folder, publish_at: at });
    expect((await delivered(resource)).status).to.equal(404);
    const deadline = Date.parse(at) + 1000;
    let seen = 0;
    while (Date.now() < deadline + 500) {
      if ((await delivered(resource)).status === 200) {
        seen = Date.now();
        break;
      }
      await sleep(25);
    }
    expect(seen, 'delivered').to.be.greaterThan(0);
    expect(seen - Date.parse(at)).to.be.lessThan(1000);
    const one = await s.api('GET', `${revisions(resource)}${revision}/`);
    expect(one.body).to.include({ status: 'published', scheduled_publish_at: null });
    const audit = await s.api('GET', v1(s, `/events/?entity_type=resource&entity_key=${resource}&event_type=update`));
    expect(audit.body.results[0].actor).to.deep.include({ key: 'scheduler' });
    expect((await s.api('GET', v1(s, '/schedules/'))).body.results.map((x: { revision: string }) => x.revision)).to.not.include(revision);
  });

  it('lists schedules soonest first, and cancels one with DELETE .../schedule/ (then 404)', async () => {
    const a = await draft('A', 'sched-a');
    const b = await draft('B', 'sched-b');
    expect((await s.api('POST', `${revisions(a.resource)}${a.revision}/publish/`, { publish_at: inMs(3_600_000) })).status).to.equal(202);
    expect((await s.api('POST', `${revisions(b.resource)}${b.revision}/publish/`, { publish_at: inMs(1_800_000) })).status).to.equal(202);
    const listed = (await s.api('GET', v1(s, '/schedules/'))).body.results.map((x: { revision: string }) => x.revision);
    expect(listed.indexOf(b.revision)).to.be.lessThan(listed.indexOf(a.revision));
    expect((await s.api('DELETE', `${revisions(a.resource)}${a.revision}/schedule/`)).status).to.equal(204);
    const again = await s.api('DELETE', `${revisions(a.resource)}${a.revision}/schedule/`);
    expect(again.status).to.equal(404);
    expect(again.body.error_code).to.equal('schedule_not_found');
    expect((await s.api('GET', v1(s, '/schedules/'))).body.results.map((x: { revision: string }) => x.revision)).to.not.include(a.revision);
    expect((await s.api('GET', `${revisions(a.resource)}${a.revision}/`)).body.scheduled_publish_at).to.equal(null);
  });

  it('refuses a past publish_at, a bad one, and an unknown revision, writing nothing', async () => {
    const { resource, revision } = await draft('Past', 'sched-past');
    const past = await s.api('POST', `${revisions(resource)}${revision}/publish/`, { publish_at: inMs(-1000) });
    expect(past.status).to.equal(422);
    expect(past.body.detail).to.have.property('publish_at');
    const bad = await s.api('POST', `${revisions(resource)}${revision}/publish/`, { publish_at: 'tomorrow' });
    expect(bad.status).to.equal(422);
    expect(bad.body.detail).to.have.property('publish_at');
    expect((await s.api('POST', `${revisions(resource)}${revision}/publish/`, { publish_at: inMs(1000), later: true })).status).to.equal(422);
    expect((await s.api('POST', `${revisions(resource)}nope/publish/`, { publish_at: inMs(60_000) })).status).to.equal(404);
    expect((await s.api('DELETE', `${revisions(resource)}nope/schedule/`)).status).to.equal(404);
    expect((await s.api('GET', `${revisions(resource)}${revision}/`)).body).to.include({ status: 'draft', scheduled_publish_at: null });
    const audit = await s.api('GET', v1(s, `/events/?entity_type=revision&entity_key=${revision}&event_type=update`));
    expect(audit.body.count).to.equal(0);
  });

  it('schedules a draft in the upsert itself with publish_at and mode=draft; refuses publish_at with mode=instant', async () => {
    const at = inMs(600);
    const r = await s.api('PUT', v1(s, `/collections/${folder}/resources/?external_id=sched-upsert`), { data: { title: 'Both' }, mode: 'draft', publish_at: at });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    const list = await s.api('GET', revisions(r.body.key));
    expect(list.body.results[0]).to.include({ status: 'draft', scheduled_publish_at: at });
    const count = async () => (await s.api('GET', v1(s, `/collections/${folder}/resources/`))).body.count as number;
    const before = await count();
    const instant = await s.api('PUT', v1(s, `/collections/${folder}/resources/?external_id=sched-instant`), { data: { title: 'x' }, publish_at: inMs(60_000) });
    expect(instant.status).to.equal(422);
    expect(instant.body.detail).to.have.property('publish_at');
    const past = await s.api('PUT', v1(s, `/collections/${folder}/resources/?external_id=sched-past`), { data: { title: 'x' }, mode: 'draft', publish_at: inMs(-60_000) });
    expect(past.status).to.equal(422);
    expect(await count()).to.equal(before);
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await delivered(r.body.key)).status;
      if (status !== 200) await sleep(25);
    }
    expect(status).to.equal(200);
  });
});
