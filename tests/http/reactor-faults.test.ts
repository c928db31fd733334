import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StoredEvent } from '../../commands/ports.js';
import type { ProjectionTarget } from '../../projections/runner.js';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

/** Makes the named reactors throw on every event whose data mentions POISON. */
function poisoner(names: readonly string[]) {
  const poisonous = (e: StoredEvent) => JSON.stringify(e.data).includes('POISON');
  return (target: ProjectionTarget): ProjectionTarget =>
    !names.includes(target.name)
      ? target
      : {
          name: target.name,
          checkpoint: () => target.checkpoint(),
          async apply(events, position) {
            if (events.some(poisonous)) throw new Error('cannot react to this event');
            await target.apply(events, position);
          },
        };
}

describe('the webhook and scheduler reactors: fault policy, and a receiver that never answers', () => {
  it('parks each reactor on a poison event, shown in /readyz and the metrics, while writes and other projections go on', async () => {
    const s: TestService = await startTestService({ PLAN: 'pro' }, undefined, { wrapProjectionTarget: poisoner(['webhooks', 'scheduler']) });
    try {
      const folder = await collectionWithSchema(s, 'poisoned');
      const poisoned = await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title: 'POISON' } });
      expect(poisoned.status).to.equal(201);
      const deadline = Date.now() + 10_000;
      let parked: { name: string; stopped: boolean }[] = [];
      while (Date.now() < deadline) {
        parked = s.service.projections.status().filter((p) => p.stopped);
        if (parked.length === 2) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(parked.map((p) => p.name).sort()).to.deep.equal(['scheduler', 'webhooks']);
      const ready = await s.get(`${s.base}/readyz`);
      expect(ready.status).to.equal(503);
      const webhooks = ready.body.projections.find((p: { name: string }) => p.name === 'webhooks');
      expect(webhooks).to.include({ stopped: true });
      expect(webhooks.error).to.include({ event_type: 'RevisionCreated' });
      const metrics = await fetch(`${s.base}/metrics`).then((r) => r.text());
      expect(metrics).to.match(/projection_stopped\{projection="webhooks"\} 1/);
      expect(metrics).to.match(/projection_stopped\{projection="scheduler"\} 1/);
      const after = await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title: 'After' } });
      expect(after.status).to.equal(201);
    } finally {
      await s.stop();
    }
  });

  it('keeps writes fast while a receiver never answers', async () => {
    const hanging: Server = createServer(() => {});
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/`;
    const s = await startTestService({ PLAN: 'pro', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT_MS: '60000' });
    try {
      const folder = await collectionWithSchema(s, 'hanging');
      expect((await s.api('POST', v1(s, '/webhooks/'), { url })).status).to.equal(201);
      const started = Date.now();
      for (let i = 0; i < 20; i++) expect((await s.api('POST', v1(s, `/collections/${folder}/resources/`), { data: { title: `t${i}` } })).status).to.equal(201);
      expect(Date.now() - started).to.be.lessThan(5000);
      expect(s.service.projections.status().every((p) => !p.stopped && p.lag === 0)).to.equal(true);
    } finally {
      await s.stop();
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
    }
  });
});
