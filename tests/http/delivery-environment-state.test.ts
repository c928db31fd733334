import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'chai';
import type { EventStore } from '../../commands/ports.js';
import { agent, expectRefusedTool, expectRefusedWrite, ORIGIN, seed, send, type Seeded, type ToolText } from '../support/delivery-seed.js';
import { startTestService, type TestService } from '../support/service.js';

describe('delivery writes and agent write tools in disabled and protected environments', function () {
  this.timeout(60_000);
  let s: TestService;
  let events: EventStore;
  let environments: string;
  const clients: Client[] = [];

  const newEnvironment = async (name: string): Promise<Seeded> => {
    const created = await s.api('POST', environments, { name });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return seed(s, created.body.key);
  };
  const protect = async (env: string, protection_level: string) =>
    expect((await s.api('PATCH', `${environments}${env}/protection/`, { protection_level })).status).to.equal(200);

  before(async () => {
    s = await startTestService({ PLAN: 'pro' }, undefined, { wrapEventStore: (store) => (events = store) });
    const org = (await s.api('GET', '/organizations/')).body[0].key;
    const project = (await s.api('GET', `/organizations/${org}/projects/`)).body.results[0].key;
    environments = `/organizations/${org}/projects/${project}/environments/`;
  });
  after(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await s?.stop();
  });

  it('a disabled environment refuses delivery writes, the agent endpoint and every read, also reads remembered before it was disabled', async () => {
    const e = await newEnvironment('Switched off');
    const list = `${e.base}/articles/`;
    const item = `${list}${e.article}/`;
    // Each read twice: the second one is answered from the remembered bytes.
    for (const authorization of [undefined, e.simple, e.bearer]) {
      for (const url of [list, item]) {
        expect((await send(url, 'GET', authorization)).status).to.equal(200);
        const again = await send(url, 'GET', authorization);
        expect(again.status).to.equal(200);
        expect(again.headers.get('access-control-allow-origin')).to.equal(ORIGIN);
      }
    }
    const early = await agent(e.base, e.simple);
    clients.push(early);
    expect((await s.api('POST', `${environments}${e.env}/toggle/`, { is_enabled: false })).status).to.equal(200);
    // A session opened before: its calls are refused at the door.
    const head = await events.headPosition();
    let refused: unknown;
    try {
      await early.callTool({ name: 'create_record', arguments: { collection_path: 'articles', data: { title: 'No' } } });
    } catch (error) {
      refused = error;
    }
    expect(String(refused)).to.match(/403|environment_disabled/);
    expect(await events.headPosition()).to.equal(head);

    for (const authorization of [undefined, e.simple, e.bearer]) {
      for (const url of [list, item, `${list}_schema`, `${e.base}/_router`]) {
        const r = await send(url, 'GET', authorization);
        expect(r.status, `${url} ${authorization ?? 'anonymous'}`).to.equal(403);
        expect(r.body).to.deep.equal({ message: r.body.message, error_code: 'environment_disabled', detail: { is_enabled: false } });
      }
      expect((await fetch(list, { method: 'HEAD', headers: authorization ? { authorization } : {} })).status).to.equal(403);
    }
    for (const authorization of [e.simple, e.bearer]) {
      const head = await events.headPosition();
      const created = await send(list, 'POST', authorization, { data: { title: 'No' } });
      expect(created.status).to.equal(403);
      expect(created.body.error_code).to.equal('environment_disabled');
      const updated = await send(item, 'PUT', authorization, { data: { title: 'No' } });
      expect(updated.status).to.equal(403);
      expect(updated.body.error_code).to.equal('environment_disabled');
      const searched = await send(`${list}_search`, 'POST', authorization, { find_text: { query: 'Hello' } });
      expect(searched.body.error_code).to.equal('environment_disabled');
      expect(await events.headPosition()).to.equal(head);
    }
    const mcp = await fetch(`${e.base}/_mcp`, {
      method: 'POST',
      headers: { authorization: e.simple, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_record', arguments: { collection_path: 'articles', data: { title: 'No' } } } }),
    });
    expect(mcp.status).to.equal(403);
    expect(((await mcp.json()) as { error_code: string }).error_code).to.equal('environment_disabled');
  });

  for (const level of ['read_only', 'locked']) {
    it(`${level}: delivery writes and agent write tools are refused with 403 environment_protected, reads are served; unprotected, they write again`, async () => {
      const e = await newEnvironment(level);
      const list = `${e.base}/articles/`;
      const item = `${list}${e.article}/`;
      expect((await send(list, 'GET')).status).to.equal(200);
      // An agent session opened before the protection.
      const client = await agent(e.base, e.simple);
      clients.push(client);
      await protect(e.env, level);

      for (const authorization of [e.simple, e.bearer]) {
        const created = await expectRefusedWrite(events, list, 'POST', authorization, { data: { title: 'No' } }, 403, 'environment_protected');
        expect(created.body.detail).to.deep.equal({ protection_level: level });
        await expectRefusedWrite(events, item, 'PUT', authorization, { data: { title: 'No' } }, 403, 'environment_protected');
      }
      for (const authorization of [undefined, e.simple, e.bearer]) {
        for (const url of [list, item, `${list}_schema`]) {
          expect((await send(url, 'GET', authorization)).status, `${url} ${authorization ?? 'anonymous'}`).to.equal(200);
          const again = await send(url, 'GET', authorization);
          expect(again.status).to.equal(200);
        }
      }
      expect((await send(item, 'GET')).body.data).to.deep.equal({ title: 'Hello' });
      const searched = await send(`${list}_search`, 'POST', e.simple, { sort: ['title'] });
      expect(searched.status, JSON.stringify(searched.body)).to.equal(200);
      expect(searched.body.results).to.be.an('array');

      await expectRefusedTool(events, client, 'create_record', { collection_path: 'articles', data: { title: 'No' } }, 'environment_protected');
      await expectRefusedTool(events, client, 'update_record', { collection_path: 'articles', key: e.article, data: { title: 'No' } }, 'environment_protected');
      const read = (await client.callTool({ name: 'get_record', arguments: { collection_path: 'articles', key: e.article } })) as ToolText;
      expect(read.isError).to.not.equal(true);
      expect(JSON.parse(read.content[0]!.text).data).to.deep.equal({ title: 'Hello' });

      await protect(e.env, 'none');
      expect((await send(list, 'POST', e.bearer, { data: { title: 'Yes' } })).status).to.equal(201);
      expect((await send(item, 'PUT', e.simple, { data: { title: 'Changed' } })).status).to.equal(200);
      const created = (await client.callTool({ name: 'create_record', arguments: { collection_path: 'articles', data: { title: 'Agent' } } })) as ToolText;
      expect(created.isError, JSON.stringify(created)).to.not.equal(true);
      expect((await send(item, 'GET')).body.data).to.deep.equal({ title: 'Changed' });
    });
  }
});
