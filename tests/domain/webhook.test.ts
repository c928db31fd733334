import { expect } from 'chai';
import { webhook, type CreateWebhook } from '../../domain/webhook/decider.js';
import type { WebhookCreated, WebhookEvent } from '../../domain/webhook/events.js';
import { isPublicAddress, urlRefusal } from '../../domain/webhook/address.js';
import { deciderSpec } from '../support/decider-spec.js';

const spec = deciderSpec(webhook);
const settings = { url: 'https://hooks.example.com/in', description: '', event_types: [], collections: [], enabled: true };
const fields = { ...settings, env: 'e', key: 'w1', secret: 'whsec_a', created_at: '2026-01-01T00:00:00.000Z' };
const create = (extra: Partial<CreateWebhook['data']> = {}): CreateWebhook => ({ type: 'CreateWebhook', data: { ...fields, allow_private_networks: false, ...extra } });
const created: WebhookCreated = { type: 'WebhookCreated', data: fields };
const ref = { env: 'e', key: 'w1' };

describe('webhook decider', () => {
  it('creates a webhook; a second create of the key is refused', () => {
    spec.given([]).when(create()).then([created]);
    spec.given([created]).when(create()).thenThrows('validation_error');
  });

  it('refuses a private URL unless private networks are allowed', () => {
    spec.given([]).when(create({ url: 'http://127.0.0.1:9/' })).thenThrows('validation_error', { url: ['must be a public address'] });
    spec.given([]).when(create({ url: 'http://127.0.0.1:9/', allow_private_networks: true })).then([{ type: 'WebhookCreated', data: { ...fields, url: 'http://127.0.0.1:9/' } }]);
  });

  it('updates only what is sent, checks the URL again, and answers 404 for another environment or a deleted webhook', () => {
    spec.given([created]).when({ type: 'UpdateWebhook', data: { ...ref, allow_private_networks: false, changes: { enabled: false } } }).then([
      { type: 'WebhookUpdated', data: { ...ref, ...settings, enabled: false } },
    ]);
    spec.given([created]).when({ type: 'UpdateWebhook', data: { ...ref, allow_private_networks: false, changes: { url: 'http://[::1]/' } } }).thenThrows('validation_error');
    spec.given([created]).when({ type: 'UpdateWebhook', data: { env: 'other', key: 'w1', allow_private_networks: false, changes: {} } }).thenThrows('webhook_not_found');
    const deleted: WebhookEvent = { type: 'WebhookDeleted', data: { ...ref, snapshot: settings } };
    spec.given([created]).when({ type: 'DeleteWebhook', data: ref }).then([deleted]);
    spec.given([created, deleted]).when({ type: 'RotateSecret', data: { ...ref, secret: 'whsec_b' } }).thenThrows('webhook_not_found');
  });

  it('disables an enabled webhook once; a disabled one is left as it is', () => {
    const disabled: WebhookEvent = { type: 'WebhookDisabled', data: { ...ref, failing_since: '2026-01-01T00:00:00.000Z' } };
    spec.given([created]).when({ type: 'DisableWebhook', data: { ...ref, failing_since: '2026-01-01T00:00:00.000Z' } }).then([disabled]);
    spec.given([created, disabled]).when({ type: 'DisableWebhook', data: { ...ref, failing_since: '2026-01-01T00:00:00.000Z' } }).then([]);
  });
});

describe('webhook addresses (server-side request forgery)', () => {
  it('refuses loopback, private, link-local, unique-local, CGNAT, metadata and IPv4-mapped private addresses', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00:ec2::254', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::']) {
      expect(isPublicAddress(address), address).to.equal(false);
    }
    for (const address of ['8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(isPublicAddress(address), address).to.equal(true);
  });

  it('refuses URLs by scheme, credentials, literal address (in any IPv4 spelling) and localhost names', () => {
    for (const url of ['http://0x7f000001/', 'http://2130706433/', 'http://127.1/', 'http://[::ffff:7f00:1]/', 'http://[fd00::1]/', 'http://localhost:8080/', 'http://a.localhost/']) {
      expect(urlRefusal(url, false), url).to.be.a('string');
    }
    expect(urlRefusal('ftp://example.com/', true)).to.equal('must be an http: or https: URL');
    expect(urlRefusal('https://u:p@example.com/', true)).to.equal('must not carry credentials');
    expect(urlRefusal('https://example.com/in', false)).to.equal(null);
    expect(urlRefusal('http://127.0.0.1:9/', true)).to.equal(null);
  });
});
