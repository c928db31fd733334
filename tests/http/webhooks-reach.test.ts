import { expect } from 'chai';
import { collectionWithSchema, eventually, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';
import { tempDir } from '../support/temp.js';
import { startReceiver } from '../support/webhook-receiver.js';

describe('webhooks: private networks refused, a webhook failing too long disabled', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    receiver = await startReceiver(500);
  });
  after(async () => receiver?.close());

  it('refuses loopback, private, link-local, unique-local, CGNAT and metadata URLs with 422 at create and update', async () => {
    const s = await startTestService({ PLAN: 'pro' });
    try {
      for (const url of ['http://127.0.0.1/', 'http://localhost:3000/', 'http://10.0.0.1/', 'http://192.168.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://100.64.0.1/', 'http://[::1]/', 'http://[fd00::1]/', 'http://[fe80::1]/', 'http://[::ffff:127.0.0.1]/', 'http://2130706433/']) {
        const r = await s.api('POST', v1(s, '/webhooks/'), { url });
        expect(r.status, url).to.equal(422);
        expect(r.body.detail, url).to.have.property('url');
      }
      const ok = await s.api('POST', v1(s, '/webhooks/'), { url: 'https://hooks.example.com/' });
      expect(ok.status).to.equal(201);
      const moved = await s.api('PUT', v1(s, `/webhooks/${ok.body.key}/`), { url: 'http://192.168.1.1/' });
      expect(moved.status).to.equal(422);
      expect((await s.api('GET', v1(s, `/webhooks/${ok.body.key}/`))).body.url).to.equal('https://hooks.example.com/');
      expect((await s.api('GET', v1(s, '/webhooks/'))).body.count).to.equal(1);
    } finally {
      await s.stop();
    }
  });

  it('refuses a private address again at delivery time (a webhook made while private networks were allowed)', async () => {
    const dataDir = tempDir();
    const first = await startTestService({ PLAN: 'pro', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, dataDir);
    const hook = (await first.api('POST', v1(first, '/webhooks/'), { url: receiver.url, event_types: ['collection.create'] })).body;
    await first.stop();
    const s = await startTestService({ PLAN: 'pro', WEBHOOK_RETRY_DELAYS_MS: '' }, dataDir);
    try {
      const before = receiver.received.length;
      await s.api('POST', v1(s, '/collections/tree/'), { name: 'Refused', alias: 'refused' });
      const refused = await eventually(
        () => s.api('GET', v1(s, `/webhooks/${hook.key}/deliveries/`)),
        (r) => r.body.results[0]?.attempts === 1,
      );
      expect(refused.body.results[0]).to.include({ status: 'pending', attempts: 1, last_status_code: null });
      expect(refused.body.results[0].last_error).to.match(/refused/);
      expect(receiver.received.length).to.equal(before);
    } finally {
      await s.stop();
    }
  });

  it('disables a webhook failing longer than WEBHOOK_DISABLE_AFTER_MS, as an audit event of the sender', async () => {
    const s: TestService = await startTestService({ PLAN: 'pro', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_DELAYS_MS: '100,100,100,100,100,100', WEBHOOK_DISABLE_AFTER_MS: '300' });
    try {
      const folder = await collectionWithSchema(s, 'failing');
      const hook = (await s.api('POST', v1(s, '/webhooks/'), { url: receiver.url, collections: [folder] })).body;
      await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title: 'x' } });
      const off = await eventually(
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 40));
          return s.api('GET', v1(s, `/webhooks/${hook.key}/`));
        },
        (r) => r.body.enabled === false,
      );
      expect(off.body.enabled).to.equal(false);
      const audit = await s.api('GET', v1(s, `/events/?entity_type=webhook&entity_key=${hook.key}&event_type=update`));
      expect(audit.body.results[0].metadata).to.include({ action: 'disable' });
      expect(audit.body.results[0].actor).to.deep.include({ key: 'webhook-sender' });
    } finally {
      await s.stop();
    }
  });
});
