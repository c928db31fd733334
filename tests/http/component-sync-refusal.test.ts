import { expect } from 'chai';
import type { EventStore } from '../../commands/ports.js';
import { v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

type Field = { key: string; type: string; meta?: Record<string, unknown> };

describe('HTTP: a component sync whose new version cannot be published', function () {
  this.timeout(30_000);
  let s: TestService;
  let events: EventStore;

  before(async () => (s = await startTestService({}, undefined, { wrapEventStore: (store) => (events = store) })));
  after(() => s?.stop());

  /** A published version of a component or collection schema holding `fields`. */
  async function publish(path: string, fields: Field[]): Promise<string> {
    const v = await s.api('POST', v1(s, `${path}/model/versions/`), {});
    for (const field of fields) {
      const f = await s.api('POST', v1(s, `${path}/model/versions/${v.body.key}/schema/tree/`), field);
      expect(f.status, JSON.stringify(f.body)).to.equal(201);
    }
    const published = await s.api('POST', v1(s, `${path}/model/versions/${v.body.key}/publish/`), {});
    expect(published.status, JSON.stringify(published.body)).to.equal(200);
    return v.body.key as string;
  }
  const component = async (name: string) => (await s.api('POST', v1(s, '/components/'), { name })).body.key as string;
  const nested = (key: string, comp: string, version: string): Field => ({ key, type: 'nested', meta: { component: comp, component_version: version } });

  it('refuses with 422 validation_error before writing anything, not after a draft was made and deleted', async () => {
    const leaf = await component('Leaf');
    const leaf1 = await publish(`/components/${leaf}`, [{ key: 'x', type: 'number' }]);
    const middle = await component('Middle');
    const middle1 = await publish(`/components/${middle}`, [nested('leaf', leaf, leaf1)]);
    const top = await component('Top');
    const top1 = await publish(`/components/${top}`, [{ key: 'title', type: 'string' }]);
    // Its newest version nests two levels: a collection pinning it would nest three.
    await publish(`/components/${top}`, [{ key: 'title', type: 'string' }, nested('middle', middle, middle1)]);
    const folder = (await s.api('POST', v1(s, '/collections/tree/'), { name: 'pages', alias: 'pages' })).body.key as string;
    await publish(`/collections/${folder}`, [nested('top', top, top1)]);
    const versions = async () => (await s.api('GET', v1(s, `/collections/${folder}/model/versions/`))).body.count as number;
    const before = await versions();
    const head = await events.headPosition();

    const refused = await s.api('POST', v1(s, `/collections/${folder}/sync_component/`), {});
    expect(refused.status).to.equal(422);
    expect(refused.body.error_code).to.equal('validation_error');
    expect(refused.body.detail).to.have.property('top');
    expect(await versions()).to.equal(before);
    expect(await events.headPosition(), 'nothing appended by the refused sync').to.equal(head);
  });
});
