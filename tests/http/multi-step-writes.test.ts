import { expect } from 'chai';
import type { EventStore } from '../../commands/ports.js';
import { startTestService, type TestService } from '../support/service.js';

/**
 * A project create is three commands (the organization's slot, the project, its production
 * environment). A billing block reached between them must not leave a project without its
 * environment: once its first step was admitted, the operation completes.
 */
describe('multi-step writes and the billing block', function () {
  this.timeout(30_000);
  let s: TestService;
  let org: string;
  /** While set, the append of a new project waits until the usage read model has counted it, as a slow request would. */
  let afterProject: (() => Promise<void>) | null = null;

  const pausing = (store: EventStore): EventStore => ({
    async appendToStream(stream, events, expected) {
      const result = await store.appendToStream(stream, events, expected);
      if (afterProject && events.some((e) => e.type === 'ProjectCreated')) await afterProject();
      return result;
    },
    readStream: (stream, from) => store.readStream(stream, from),
    readAll: (after, limit) => store.readAll(after, limit),
    subscribeToAll: (after) => store.subscribeToAll(after),
    headPosition: () => store.headPosition(),
    close: () => store.close(),
  });
  const writes = async (): Promise<number> => (await s.api('GET', `/organizations/${org}/usage/`)).body.current_usage.writes;

  before(async () => {
    const first = await startTestService({ PLAN: 'pro' });
    org = (await first.api('GET', '/organizations/')).body[0].key;
    const used = (await first.api('GET', `/organizations/${org}/usage/`)).body.current_usage.writes as number;
    await first.stop();
    // One write left before the spend cap.
    s = await startTestService({ PLAN: 'pro', WRITE_PRICE_USD: '1', SPEND_CAP_USD: String(used + 1) }, first.dataDir, { wrapEventStore: pausing });
  });
  after(() => s?.stop());

  it('creates a project admitted at its first step whole, with its production environment, when the cap is reached halfway', async () => {
    const before = await writes();
    afterProject = async () => {
      afterProject = null;
      for (let i = 0; i < 1000 && (await writes()) === before; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await writes(), 'the usage read model counted the project').to.equal(before + 1);
    };
    const created = await s.api('POST', `/organizations/${org}/projects/`, { name: 'Halfway' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const environments = await s.api('GET', `/organizations/${org}/projects/${created.body.key}/environments/`);
    expect(environments.body.map((e: { name: string }) => e.name)).to.deep.equal(['Production']);
    // The cap holds for the next operation.
    const refused = await s.api('POST', `/organizations/${org}/projects/`, { name: 'Over' });
    expect(refused.status).to.equal(402);
    expect(refused.body.error_code).to.equal('spend_cap_reached');
    const projects = await s.api('GET', `/organizations/${org}/projects/`);
    expect(projects.body.results.map((p: { name: string }) => p.name).sort()).to.deep.equal(['Default project', 'Halfway']);
  });
});
