import { expect } from 'chai';
import { v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

type Field = { key: string; type: string; required?: boolean; meta?: Record<string, unknown> };

describe('HTTP: POST .../collections/:key/sync_component/', function () {
  this.timeout(30_000);
  let s: TestService;

  before(async () => {
    s = await startTestService();
  });
  after(() => s.stop());

  /** A published version of a component or collection schema holding `fields`. */
  async function publish(path: string, fields: Field[]): Promise<string> {
    const v = await s.api('POST', v1(s, `${path}/model/versions/`), {});
    for (const field of fields) {
      const f = await s.api('POST', v1(s, `${path}/model/versions/${v.body.key}/schema/tree/`), field);
      expect(f.status, JSON.stringify(f.body)).to.equal(201);
    }
    expect((await s.api('POST', v1(s, `${path}/model/versions/${v.body.key}/publish/`), {})).status).to.equal(200);
    return v.body.key as string;
  }
  const component = async (name: string) => (await s.api('POST', v1(s, '/components/'), { name })).body.key as string;
  const collection = async (alias: string) => (await s.api('POST', v1(s, '/collections/tree/'), { name: alias, alias })).body.key as string;
  const sync = (folder: string, body: unknown = {}) => s.api('POST', v1(s, `/collections/${folder}/sync_component/`), body);
  const publishedOf = async (folder: string) => {
    const list = await s.api('GET', v1(s, `/collections/${folder}/model/versions/?include_schema=false`));
    return list.body.results.find((v: { published_at: string | null; archived_at: string | null }) => v.published_at && !v.archived_at).key as string;
  };

  it('moves a nested field to the component\'s newest published version through a new published schema version', async () => {
    const geo = await component('Geo');
    const geo1 = await publish(`/components/${geo}`, [{ key: 'lat', type: 'number' }]);
    const places = await collection('places');
    const before = await publish(`/collections/${places}`, [{ key: 'title', type: 'string' }, { key: 'where', type: 'nested', meta: { component: geo, component_version: geo1 } }]);
    const geo2 = await publish(`/components/${geo}`, [{ key: 'lat', type: 'number' }, { key: 'lon', type: 'number' }]);

    const r = await sync(places);
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect(r.body.synced_paths).to.deep.equal(['where']);
    expect(r.body.skipped).to.deep.equal([]);
    expect(r.body.schema_version).to.be.a('string').and.not.equal(before);
    expect(await publishedOf(places)).to.equal(r.body.schema_version);
    const field = await s.api('GET', v1(s, `/collections/${places}/model/versions/${r.body.schema_version}/schema/tree/field/?path=where`));
    expect(field.body.meta).to.include({ component: geo, component_version: geo2 });
    const data = await s.api('POST', v1(s, `/collections/${places}/resources/`), { data: { title: 'x', where: { lat: 1, lon: 2 } } });
    expect(data.status, 'the new pin validates content').to.equal(201);

    const again = await sync(places);
    expect(again.body).to.deep.equal({ synced_paths: [], skipped: [{ path: 'where', reason: 'already_at_target' }], schema_version: null });
  });

  it('skips fields not requested and fields in auto_update mode, and names the reason', async () => {
    const geo = await component('Geo2');
    const geo1 = await publish(`/components/${geo}`, [{ key: 'lat', type: 'number' }]);
    const folder = await collection('trips');
    await publish(`/collections/${folder}`, [
      { key: 'start', type: 'nested', meta: { component: geo, component_version: geo1 } },
      { key: 'end', type: 'nested', meta: { component: geo, component_version: geo1, auto_update: true } },
      { key: 'stop', type: 'nested', meta: { component: geo, component_version: geo1 } },
    ]);
    await publish(`/components/${geo}`, [{ key: 'lat', type: 'number' }, { key: 'alt', type: 'number' }]);
    const r = await sync(folder, { field_paths: ['start', 'end'] });
    expect(r.status).to.equal(200);
    expect(r.body.synced_paths).to.deep.equal(['start']);
    expect(r.body.skipped).to.deep.equal([
      { path: 'end', reason: 'auto_update_mode' },
      { path: 'stop', reason: 'not_requested' },
    ]);
  });

  it('pins the version named in to_versions', async () => {
    const geo = await component('Geo3');
    const first = await publish(`/components/${geo}`, [{ key: 'lat', type: 'number' }]);
    const second = await publish(`/components/${geo}`, [{ key: 'lat', type: 'number' }, { key: 'note', type: 'string' }]);
    await publish(`/components/${geo}`, [{ key: 'lat', type: 'number' }, { key: 'note', type: 'string' }, { key: 'x', type: 'string' }]);
    const folder = await collection('pins');
    await publish(`/collections/${folder}`, [{ key: 'at', type: 'nested', meta: { component: geo, component_version: first } }]);
    const r = await sync(folder, { field_paths: ['at'], to_versions: { at: second } });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    const field = await s.api('GET', v1(s, `/collections/${folder}/model/versions/${r.body.schema_version}/schema/tree/field/?path=at`));
    expect(field.body.meta.component_version).to.equal(second);
  });

  it('refuses a change that breaks existing data with 409 component_sync_conflict listing each field and reason, and writes nothing', async () => {
    const geo = await component('Geo4');
    const geo1 = await publish(`/components/${geo}`, [{ key: 'lat', type: 'number' }, { key: 'name', type: 'string' }]);
    const folder = await collection('breaks');
    const before = await publish(`/collections/${folder}`, [{ key: 'loc', type: 'nested', meta: { component: geo, component_version: geo1 } }]);
    await publish(`/components/${geo}`, [{ key: 'lat', type: 'string' }, { key: 'code', type: 'string', required: true }]);
    const versions = async () => (await s.api('GET', v1(s, `/collections/${folder}/model/versions/`))).body.count as number;
    const count = await versions();
    const r = await sync(folder);
    expect(r.status).to.equal(409);
    expect(r.body.error_code).to.equal('component_sync_conflict');
    expect(r.body.detail).to.have.deep.members([
      { field_path: 'loc.lat', blocking_reason: 'type_narrowed' },
      { field_path: 'loc.name', blocking_reason: 'field_removed' },
      { field_path: 'loc.code', blocking_reason: 'required_field_added_no_default' },
    ]);
    expect(await versions()).to.equal(count);
    expect(await publishedOf(folder)).to.equal(before);
  });

  it('answers 404 for an unknown collection, 422 for bad bodies, paths that are no nested field, and a collection without a published version', async () => {
    expect((await sync('nope')).body.error_code).to.equal('collection_not_found');
    const folder = await collection('plain');
    const unpublished = await sync(folder);
    expect(unpublished.status).to.equal(422);
    await publish(`/collections/${folder}`, [{ key: 'title', type: 'string' }]);
    for (const body of [{ field_paths: 'title' }, { to_versions: { a: 5 } }, { extra: 1 }, { field_paths: ['title'] }, { field_paths: ['a'], to_versions: { b: 'v' } }]) {
      const r = await sync(folder, body);
      expect(r.status, JSON.stringify(body)).to.equal(422);
      expect(r.body.error_code).to.equal('validation_error');
    }
    const nothing = await sync(folder);
    expect(nothing.body).to.deep.equal({ synced_paths: [], skipped: [], schema_version: null });
  });
});
