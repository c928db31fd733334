import { expect } from 'chai';
import { argvSettings, loadConfig } from '../../infra/config.js';

describe('ROLE and DELIVERY_PROCESSES settings', () => {
  it('defaults to one process doing everything', () => {
    const config = loadConfig({});
    expect(config.role).to.equal('all');
    expect(config.deliveryProcesses).to.equal(0);
  });

  it('takes each role, and refuses an unknown one', () => {
    for (const role of ['all', 'api', 'delivery', 'worker']) expect(loadConfig({ ROLE: role }).role).to.equal(role);
    expect(() => loadConfig({ ROLE: 'reader' })).to.throw(/ROLE must be one of all, api, delivery, worker/);
  });

  it('starts delivery processes only from an all or api process on a fixed delivery port', () => {
    expect(loadConfig({ ROLE: 'api', DELIVERY_PROCESSES: '2' }).deliveryProcesses).to.equal(2);
    expect(() => loadConfig({ ROLE: 'worker', DELIVERY_PROCESSES: '2' })).to.throw(/goes with ROLE all or api/);
    expect(() => loadConfig({ ROLE: 'delivery', DELIVERY_PROCESSES: '1' })).to.throw(/goes with ROLE all or api/);
    expect(() => loadConfig({ DELIVERY_PROCESSES: '2', DELIVERY_PORT: '0' })).to.throw(/fixed DELIVERY_PORT/);
    expect(() => loadConfig({ DELIVERY_PROCESSES: 'two' })).to.throw(/DELIVERY_PROCESSES must be a non-negative integer/);
  });

  it('reads --delivery-processes N (or =N) from the command line', () => {
    expect(argvSettings(['--delivery-processes', '3'])).to.deep.equal({ DELIVERY_PROCESSES: '3' });
    expect(argvSettings(['--delivery-processes=2'])).to.deep.equal({ DELIVERY_PROCESSES: '2' });
    expect(argvSettings(['--other'])).to.deep.equal({});
    expect(() => argvSettings(['--delivery-processes'])).to.throw(/needs a number/);
  });
});
