import { expect } from 'chai';
import { apiOf, startChildService, type ChildService } from '../support/child-service.js';
import { collectionWithSchema, v1 } from '../support/content.js';
import { tempDir } from '../support/temp.js';
import { startReceiver } from '../support/webhook-receiver.js';

const kill = async (child: ChildService): Promise<void> => {
  child.process.kill('SIGKILL');
  await child.exited;
};

const until = async (done: () => Promise<boolean>, timeoutMs: number): Promise<boolean> => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
};

describe('webhooks and schedules after kill -9 (restart on the same data directory)', function () {
  this.timeout(120_000);

  it('sends every pending delivery and fires a schedule due while the service was down, once, whatever the restarts', async () => {
    const dataDir = tempDir();
    const receiver = await startReceiver(503);
    const settings = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_DELAYS_MS: '100,100,100,100,100,100,100,100,100,100,100,100,100,100,100,100,100,100,100,100', PLAN: 'pro' };
    let child = await startChildService(dataDir, settings);
    try {
      let api = apiOf(child);
      const env = child.bootstrap.environment;
      const folder = await collectionWithSchema({ env, api }, 'crashed');
      const hook = await api('POST', v1({ env }, '/webhooks/'), { url: receiver.url, collections: [folder] });
      expect(hook.status).to.equal(201);
      const created = await api('PUT', v1({ env }, `/collections/${folder}/resources/?external_id=c1`), { data: { title: 'later' }, mode: 'draft' });
      const resource = created.body.key as string;
      const revision = (await api('GET', v1({ env }, `/collections/${folder}/resources/${resource}/revisions/`))).body.results[0].key as string;
      const publishAt = new Date(Date.now() + 1500).toISOString();
      expect((await api('POST', v1({ env }, `/collections/${folder}/resources/${resource}/revisions/${revision}/publish/`), { publish_at: publishAt })).status).to.equal(202);
      // The receiver is down (503): the deliveries are pending when the service dies.
      expect(await until(async () => receiver.received.length > 0, 10_000)).to.equal(true);
      expect((await api('GET', v1({ env }, `/collections/${folder}/resources/${resource}/revisions/${revision}/`))).body.status).to.equal('draft');
      await kill(child);
      // Down past the schedule's time; the receiver comes back.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(publishAt) - Date.now()) + 300));
      const down = receiver.received.length;
      receiver.answer(200);
      child = await startChildService(dataDir, settings);
      api = apiOf(child);
      const published = async () => (await api('GET', v1({ env }, `/collections/${folder}/resources/${resource}/revisions/${revision}/`))).body.status === 'published';
      expect(await until(published, 10_000), 'published after the restart').to.equal(true);
      // Killed again at once, restarted again: the schedule does not fire a second time.
      await kill(child);
      child = await startChildService(dataDir, settings);
      api = apiOf(child);
      const publishes = await api('GET', v1({ env }, `/events/?entity_type=resource&entity_key=${resource}&event_type=update`));
      expect(publishes.body.count).to.equal(1);
      expect(publishes.body.results[0].actor).to.deep.include({ key: 'scheduler' });
      // Every event the webhook took is delivered (at least once, the same webhook-id on each try).
      const all = async () => (await api('GET', v1({ env }, `/webhooks/${hook.body.key}/deliveries/`))).body;
      expect(await until(async () => (await all()).results.every((d: { status: string }) => d.status === 'delivered'), 15_000), JSON.stringify(await all())).to.equal(true);
      const deliveries = await all();
      const types = deliveries.results.map((d: { type: string }) => d.type);
      expect(types).to.include.members(['resource.create', 'revision.create', 'revision.update', 'resource.update']);
      const delivered = new Set(receiver.received.slice(down).filter((r) => r.status === 200).map((r) => r.headers['webhook-id']));
      for (const d of deliveries.results) expect(delivered.has(d.id), d.type).to.equal(true);
    } finally {
      if (child.process.exitCode === null && child.process.signalCode === null) await kill(child);
      await receiver.close();
    }
  });
});

