import { expect } from 'chai';
import { secureHeaders } from '../support/secure-signing.js';
import { startTestService, type TestService } from '../support/service.js';
import { tempDir } from '../support/temp.js';

type Key = { key: string; public_key: string; secret_key: string };

/** Used Secure signatures outlive the process (docs/decisions/0335): a restart on the same data directory does not reopen a signature's window. */
describe('HTTP: Secure replay protection across a restart', function () {
  this.timeout(60_000);
  const dataDir = tempDir();
  let s: TestService | undefined;
  after(async () => s?.stop());

  it('refuses the same signed management and delivery requests after a restart on the same data directory', async () => {
    s = await startTestService({}, dataDir);
    const env = s.env;
    const manager: Key = (await s.api('POST', `/v1/${env}/permissions/management-api/api-keys/`, { role: null })).body;
    const reader: Key = (await s.api('POST', `/v1/${env}/permissions/delivery-api/api-keys/`, { role: null })).body;
    expect((await s.api('POST', `/v1/${env}/api/`, { name: 'Site', prefix: 'site', is_auth_required: true })).status).to.equal(201);

    const managementPath = `/v1/${env}/locales/`;
    const signedManagement = secureHeaders(manager.public_key, manager.secret_key, `${s.base}${managementPath}`);
    // bootstrap.json keeps the first start's delivery URL: the restarted service listens on another port.
    const routerUrl = (t: TestService) => `${new URL(t.service.urls.delivery).origin}${new URL(t.delivery).pathname}/site/_router`;
    const signedDelivery = secureHeaders(reader.public_key, reader.secret_key, routerUrl(s));
    const deliveryCall = async (t: TestService) => (await fetch(routerUrl(t), { headers: signedDelivery })).status;

    expect((await s.api('GET', managementPath, undefined, signedManagement)).status).to.equal(200);
    const first = await deliveryCall(s);
    expect(first, 'the delivery request is authenticated').to.not.equal(401);
    expect((await s.api('GET', managementPath, undefined, signedManagement)).status, 'a replay in the same process').to.equal(401);
    expect(await deliveryCall(s)).to.equal(401);

    await s.stop();
    s = await startTestService({}, dataDir);
    expect(s.env).to.equal(env);
    const again = await s.api('GET', managementPath, undefined, signedManagement);
    expect(again.status, 'a replay after the restart').to.equal(401);
    expect(again.body.error_code).to.equal('authentication_failed');
    expect(await deliveryCall(s), 'a delivery replay after the restart').to.equal(401);
    const fresh = secureHeaders(manager.public_key, manager.secret_key, `${s.base}${managementPath}`);
    expect((await s.api('GET', managementPath, undefined, fresh)).status, 'a new signature still works').to.equal(200);
  });
});
