import { expect } from 'chai';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { bootstrapProgress } from '../../commands/bootstrap-progress.js';
import { CommandBus } from '../../commands/command-bus.js';
import type { EventStore } from '../../commands/ports.js';
import { bootstrap } from '../../commands/tenancy.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { startTestService } from '../support/service.js';
import { tempDir } from '../support/temp.js';

/** An event store that "crashes" (throws) on the append after the first `appends`. */
function crashingAfter(store: EventStore, appends: number): EventStore {
  let left = appends;
  return new Proxy(store, {
    get(target, name, receiver) {
      if (name !== 'appendToStream') return Reflect.get(target, name, receiver);
      return (...args: Parameters<EventStore['appendToStream']>) => {
        if (left-- <= 0) throw new Error('crash');
        return target.appendToStream(...args);
      };
    },
  });
}

/** A data directory whose bootstrap stopped after `appends` of its four appends. */
async function interruptedBootstrap(appends: number): Promise<{ dataDir: string; types: string[] }> {
  const dataDir = tempDir();
  const store = new SqliteEventStore(join(dataDir, 'events.db'));
  const failed = await bootstrap(new CommandBus(crashingAfter(store, appends)), { plan: 'free', email: 'first@example.com', now: '2026-01-01T00:00:00.000Z' }).catch((e: Error) => e);
  expect(failed).to.be.instanceOf(Error);
  const types = (await store.readAll('', 100)).map((e) => e.type);
  await store.close();
  return { dataDir, types };
}

describe('bootstrap after a crash', () => {
  for (const appends of [1, 2, 3]) {
    it(`finishes a bootstrap interrupted after ${appends} of its 4 appends, reusing what it wrote`, async () => {
      const { dataDir, types } = await interruptedBootstrap(appends);
      expect(types).to.have.length(appends);
      const s = await startTestService({}, dataDir);
      try {
        expect(s.service.bootstrapCreated).to.equal(true);
        const orgs = await s.api('GET', '/v1/global-events/?entity_type=customer');
        expect(orgs.status, 'the token of the first run’s administrator works').to.equal(200);
        expect(orgs.body.count, 'one organization, not a second one').to.equal(1);
        const users = await s.api('GET', '/v1/global-events/?entity_type=user');
        expect(users.body.count).to.equal(1);
        const created = await s.api('POST', `/v1/${s.env}/collections/tree/`, { name: 'After', alias: 'after' });
        expect(created.status).to.equal(201);
      } finally {
        await s.stop();
      }
      // And the next restart bootstraps nothing more.
      const again = await startTestService({}, dataDir);
      try {
        expect(again.service.bootstrapCreated).to.equal(false);
        expect((await again.api('GET', '/v1/global-events/?entity_type=project')).body.count).to.equal(1);
      } finally {
        await again.stop();
      }
    });
  }

  it('writes bootstrap.json again when the crash came after the last append, with the same keys', async () => {
    const first = await startTestService();
    const { environment, organization } = first.service.bootstrap ?? {};
    await first.stop();
    rmSync(join(first.dataDir, 'bootstrap.json'));
    const s = await startTestService({}, first.dataDir);
    try {
      expect(s.service.bootstrap).to.include({ environment, organization });
      expect((await s.api('GET', '/v1/global-events/?entity_type=environment')).body.count).to.equal(1);
      expect(existsSync(join(first.dataDir, 'bootstrap.json.tmp'))).to.equal(false);
    } finally {
      await s.stop();
    }
  });

  it('leaves a store it did not bootstrap alone (no organization first)', () => {
    const metadata = { actor_type: 'system', actor: null, ip_address: null, referer: null, timestamp: '' } as const;
    const foreign = [{ id: 'x1', stream: 'other-1', revision: 0, position: '1', type: 'SomethingElse', data: {}, metadata }];
    expect(bootstrapProgress(foreign)).to.equal(null);
    expect(bootstrapProgress([])).to.equal(null);
  });
});
