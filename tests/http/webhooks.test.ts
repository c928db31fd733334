import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { collectionWithSchema, eventually, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';
import { startReceiver } from '../support/webhook-receiver.js';

type Key = { key: string; public_key: string; secret_key: string };

describe('webhooks: management routes, signed deliveries, retries', () => {
  let s: TestService;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const hooks = () => v1(s, '/webhooks/');

  before(async () => {
    receiver = await startReceiver();
    s = await startTestService({ PLAN: 'pro', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_DELAYS_MS: '50,100' });
  });
  after(async () => {
    await s?.stop();
    await receiver?.close();
  });

  it('creates a webhook (201) with a whsec_ secret shown once, lists it in the envelope, gets, updates and deletes it', async () => {
    const created = await s.api('POST', hooks(), { url: 'https://hooks.example.com/in', description: 'site', event_types: ['resource.create'] });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.have.all.keys('key', 'url', 'description', 'event_types', 'collections', 'enabled', 'secret', 'created_at');
    expect(created.body).to.deep.include({ url: 'https://hooks.example.com/in', description: 'site', event_types: ['resource.create'], collections: [], enabled: true });
    expect(created.body.secret).to.match(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(created.body.secret.slice(6), 'base64')).to.have.length(24);
    const key = created.body.key as string;
    const got = await s.api('GET', `${hooks()}${key}/`);
    expect(got.status).to.equal(200);
    expect(got.body).to.not.have.property('secret');
    const list = await s.api('GET', hooks());
    expect(list.body).to.have.all.keys('count', 'next', 'previous', 'results');
    expect(list.body.results.map((h: { key: string }) => h.key)).to.include(key);
    const put = await s.api('PUT', `${hooks()}${key}/`, { url: 'https://hooks.example.com/other', enabled: false });
    expect(put.status).to.equal(200);
    expect(put.body).to.deep.include({ url: 'https://hooks.example.com/other', enabled: false, description: 'site', event_types: ['resource.create'] });
    const rotated = await s.api('POST', `${hooks()}${key}/rotate-secret/`);
    expect(rotated.status).to.equal(200);
    expect(rotated.body.secret).to.match(/^whsec_/).and.not.equal(created.body.secret);
    const events = await s.api('GET', v1(s, `/events/?entity_type=webhook&entity_key=${key}`));
    expect(events.body.results.map((e: { event_type: string }) => e.event_type)).to.deep.equal(['update', 'update', 'create']);
    expect(JSON.stringify(events.body)).to.not.include(created.body.secret.slice(6));
    expect((await s.api('DELETE', `${hooks()}${key}/`)).status).to.equal(204);
    expect((await s.api('GET', `${hooks()}${key}/`)).status).to.equal(404);
  });

  it('answers 404 webhook_not_found for an unknown key on every route', async () => {
    for (const [method, path, body] of [
      ['GET', 'nope/', undefined],
      ['PUT', 'nope/', { url: 'https://a.example.com/' }],
      ['DELETE', 'nope/', undefined],
      ['POST', 'nope/rotate-secret/', undefined],
      ['GET', 'nope/deliveries/', undefined],
      ['POST', 'nope/deliveries/x/retry/', undefined],
    ] as const) {
      const r = await s.api(method, `${hooks()}${path}`, body);
      expect(r.status, `${method} ${path}`).to.equal(404);
      expect(r.body.error_code).to.equal('webhook_not_found');
    }
    const hook = await s.api('POST', hooks(), { url: 'https://a.example.com/' });
    const r = await s.api('POST', `${hooks()}${hook.body.key}/deliveries/nope/retry/`);
    expect(r.status).to.equal(404);
    expect(r.body.error_code).to.equal('delivery_not_found');
  });

  it('refuses bad bodies with 422 naming the field, and writes nothing', async () => {
    const before = (await s.api('GET', hooks())).body.count;
    const cases: [unknown, string][] = [
      [{}, 'url'],
      [{ url: 5 }, 'url'],
      [{ url: 'ftp://a.example.com/' }, 'url'],
      [{ url: 'not a url' }, 'url'],
      [{ url: 'https://a.example.com/', event_types: ['resource.explode'] }, 'event_types.0'],
      [{ url: 'https://a.example.com/', enabled: 'yes' }, 'enabled'],
      [{ url: 'https://a.example.com/', secret: 'whsec_x' }, 'secret'],
      [{ url: 'https://a.example.com/', collections: 'all' }, 'collections'],
    ];
    for (const [body, field] of cases) {
      const r = await s.api('POST', hooks(), body);
      expect(r.status, JSON.stringify(body)).to.equal(422);
      expect(r.body.error_code).to.equal('validation_error');
      expect(r.body.detail, JSON.stringify(body)).to.have.property(field);
    }
    const hook = await s.api('POST', hooks(), { url: 'https://a.example.com/' });
    expect((await s.api('PUT', `${hooks()}${hook.body.key}/`, { description: 'no url' })).body.detail).to.have.property('url');
    expect((await s.api('POST', `${hooks()}${hook.body.key}/rotate-secret/`, { force: true })).status).to.equal(422);
    expect((await s.api('GET', hooks())).body.count).to.equal(before + 1);
  });

  it('answers 401 without credentials', async () => {
    const r = await s.api('GET', hooks(), undefined, { authorization: '' });
    expect(r.status).to.equal(401);
    expect((await s.api('POST', hooks(), { url: 'https://a.example.com/' }, { authorization: 'Bearer nope' })).status).to.equal(401);
  });

  describe('rights: the webhooks content type of a role', () => {
    const keysPath = () => v1(s, '/permissions/management-api/api-keys/');
    const rolesPath = () => v1(s, '/permissions/management-api/roles/');
    const keyWith = async (permissions: object[]): Promise<Key> => {
      const role = (await s.api('POST', rolesPath(), { name: 'r' })).body.key;
      if (permissions.length) expect((await s.api('POST', `${rolesPath()}${role}/permissions/batch/`, permissions)).status).to.equal(200);
      return (await s.api('POST', keysPath(), { role })).body;
    };
    const asKey = (k: Key, method: string, path: string, body?: unknown) => s.api(method, path, body, { authorization: `Simple ${k.public_key}:${k.secret_key}` });

    it('refuses a key without webhooks rights with 403 and writes nothing', async () => {
      const k = await keyWith([{ content_type: 'resources', actions: ['create', 'read', 'update', 'delete'] }]);
      const before = (await s.api('GET', hooks())).body.count;
      const denied = await asKey(k, 'POST', hooks(), { url: 'https://a.example.com/' });
      expect(denied.status).to.equal(403);
      expect(denied.body.error_code).to.equal('permission_denied');
      expect((await asKey(k, 'GET', hooks())).status).to.equal(403);
      const hook = (await s.api('POST', hooks(), { url: 'https://a.example.com/' })).body;
      expect((await asKey(k, 'POST', `${hooks()}${hook.key}/rotate-secret/`)).status).to.equal(403);
      expect((await asKey(k, 'DELETE', `${hooks()}${hook.key}/`)).status).to.equal(403);
      expect((await s.api('GET', hooks())).body.count).to.equal(before + 1);
      expect((await s.api('GET', `${hooks()}${hook.key}/`)).status).to.equal(200);
    });

    it('lets a key with read only list, and not create or rotate', async () => {
      const k = await keyWith([{ content_type: 'webhooks', actions: ['read'] }]);
      expect((await asKey(k, 'GET', hooks())).status).to.equal(200);
      expect((await asKey(k, 'POST', hooks(), { url: 'https://a.example.com/' })).status).to.equal(403);
      const hook = (await s.api('POST', hooks(), { url: 'https://a.example.com/' })).body;
      expect((await asKey(k, 'POST', `${hooks()}${hook.key}/rotate-secret/`)).status).to.equal(403);
      const full = await keyWith([{ content_type: 'webhooks', actions: ['create', 'read', 'update', 'delete'] }]);
      expect((await asKey(full, 'POST', hooks(), { url: 'https://a.example.com/' })).status).to.equal(201);
    });
  });

  it('posts each matching event signed per Standard Webhooks, with the audit entry as data', async () => {
    const folder = await collectionWithSchema(s, 'signed');
    const hook = (await s.api('POST', hooks(), { url: receiver.url, collections: [folder] })).body;
    const start = receiver.received.length;
    const created = await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title: 'Hello' } });
    expect(created.status).to.equal(201);
    const got = (await receiver.waitFor(start + 1)).slice(start);
    expect(got.length).to.be.greaterThan(0);
    const first = got[0]!;
    const verified = new Webhook(hook.secret).verify(first.body, first.headers as Record<string, string>) as { type: string; data: { key: string } };
    expect(verified.type).to.equal('resource.create');
    const audit = await s.api('GET', v1(s, `/events/?entity_type=resource&entity_key=${created.body.key}`));
    expect(verified.data).to.deep.equal(audit.body.results[0]);
    expect(first.headers['webhook-id']).to.be.a('string');
    expect(() => new Webhook(`whsec_${Buffer.alloc(24).toString('base64')}`).verify(first.body, first.headers as Record<string, string>)).to.throw();
    const deliveries = await eventually(
      () => s.api('GET', `${hooks()}${hook.key}/deliveries/`),
      (r) => r.body.results.every((d: { status: string }) => d.status === 'delivered'),
    );
    expect(deliveries.body.results[0]).to.have.all.keys('id', 'type', 'status', 'attempts', 'last_status_code', 'last_error', 'next_attempt_at', 'delivered_at');
    expect(deliveries.body.results[0]).to.include({ status: 'delivered', attempts: 1, last_status_code: 200 });
  });

  it('retries a failing delivery with the same webhook-id, then marks it failed; retry sends it again now', async () => {
    const folder = await collectionWithSchema(s, 'retried');
    const hook = (await s.api('POST', hooks(), { url: receiver.url, collections: [folder], event_types: ['resource.create'] })).body;
    receiver.script(500, 503, 500);
    const start = receiver.received.length;
    await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title: 'x' } });
    const got = (await receiver.waitFor(start + 3)).slice(start);
    expect(got.map((r) => r.status)).to.deep.equal([500, 503, 500]);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).to.equal(1);
    const failed = await eventually(() => s.api('GET', `${hooks()}${hook.key}/deliveries/`), (r) => r.body.results[0]?.status === 'failed');
    expect(failed.body.results[0]).to.include({ status: 'failed', attempts: 3, last_status_code: 500, next_attempt_at: null, delivered_at: null });
    const retried = await s.api('POST', `${hooks()}${hook.key}/deliveries/${failed.body.results[0].id}/retry/`);
    expect(retried.status).to.equal(202);
    await receiver.waitFor(start + 4);
    const delivered = await eventually(() => s.api('GET', `${hooks()}${hook.key}/deliveries/`), (r) => r.body.results[0]?.status === 'delivered');
    expect(delivered.body.results[0]).to.include({ status: 'delivered', attempts: 4, last_status_code: 200 });
  });

  it('keeps the log order of one resource while its first delivery is retried', async () => {
    const folder = await collectionWithSchema(s, 'ordered');
    await s.api('POST', hooks(), { url: receiver.url, collections: [folder], event_types: ['resource.create', 'resource.update'] });
    receiver.script(500);
    const start = receiver.received.length;
    const created = await s.api('PUT', v1(s, `/collections/${folder}/resources/?external_id=o1`), { data: { title: 'one' }, name: 'a' });
    await s.api('PUT', v1(s, `/collections/${folder}/resources/${created.body.key}/`), { name: 'b' });
    const got = (await receiver.waitFor(start + 3)).slice(start);
    expect(got.map((r) => JSON.parse(r.body).type)).to.deep.equal(['resource.create', 'resource.create', 'resource.update']);
  });
});
