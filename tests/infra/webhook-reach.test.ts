import { expect } from 'chai';
import { refuseUnreachable } from '../../infra/webhooks/reach.js';
import { retryDelay } from '../../infra/webhooks/sender.js';
import { sign } from '../../infra/webhooks/signature.js';
import { Webhook } from 'standardwebhooks';

describe('webhook delivery: the address check after resolution, signatures, backoff', () => {
  const resolver = (addresses: string[]) => async () => addresses;

  it('refuses a name that resolves to a private address (any of them), and passes one that resolves to public ones', async () => {
    for (const addresses of [['127.0.0.1'], ['8.8.8.8', '10.0.0.1'], ['::ffff:169.254.169.254'], ['fd12::1']]) {
      let refused: unknown = null;
      await refuseUnreachable('https://rebound.example.com/', false, resolver(addresses)).catch((error: unknown) => (refused = error));
      expect(refused, addresses.join()).to.be.instanceOf(Error);
      expect((refused as Error).message).to.match(/not a public address/);
    }
    await refuseUnreachable('https://ok.example.com/', false, resolver(['8.8.8.8', '2606:4700:4700::1111']));
    await refuseUnreachable('https://private.example.com/', true, resolver(['10.0.0.1']));
  });

  it('refuses a literal private address without resolving anything', async () => {
    let asked = false;
    const error = await refuseUnreachable('http://[::1]:80/', false, async () => {
      asked = true;
      return [];
    }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(Error);
    expect(asked).to.equal(false);
  });

  it('signs as the standardwebhooks package verifies', () => {
    const secret = `whsec_${Buffer.from('0123456789abcdefghijklmn').toString('base64')}`;
    const now = Math.floor(Date.now() / 1000);
    const body = '{"type":"resource.create"}';
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(now), 'webhook-signature': sign(secret, 'msg_1', now, body) };
    expect(new Webhook(secret).verify(body, headers)).to.deep.equal({ type: 'resource.create' });
  });

  it('waits each configured delay with ±20% jitter, then gives up', () => {
    const delays = [5000, 300_000];
    expect(retryDelay(delays, 1, () => 0)).to.equal(4000);
    expect(retryDelay(delays, 1, () => 1)).to.equal(6000);
    expect(retryDelay(delays, 2, () => 0.5)).to.equal(300_000);
    expect(retryDelay(delays, 3)).to.equal(null);
  });
});
