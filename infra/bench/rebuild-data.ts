// `npx tsx infra/bench/rebuild-data.ts DIR [RESOURCES]`: seeds a data directory for profiling
// `npm run rebuild` (docs/decisions/0140): the service in this process on 127.0.0.1, the
// benchmark's collection and resources (POST ?wait=false, as `npm run bench` seeds), so the log
// has the benchmark's mix of events. Leaves DIR for
// `npx tsx infra/bench/rebuild-once.ts DIR`.
import { mkdirSync } from 'node:fs';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { startService } from '../service.js';
import { seedResources, setupContent, waitForDelivery } from './seed.js';

const [dir, count = '20000'] = process.argv.slice(2);
if (!dir) {
  process.stderr.write('usage: npx tsx infra/bench/rebuild-data.ts DIR [RESOURCES]\n');
  process.exit(2);
}
const resources = Number(count);
if (!Number.isInteger(resources) || resources < 1 || resources > 1_000_000) throw new Error(`RESOURCES must be an integer from 1 to 1000000, got ${count}`);
mkdirSync(dir, { recursive: true });
const config = loadConfig({ DATA_DIR: dir, PORT: '0', DELIVERY_PORT: '0', HOST: '127.0.0.1', PLAN: 'pro', RATE_LIMIT_PER_MINUTE: 'off' });
const service = await startService(config, createLogger('warn'));
try {
  const b = service.bootstrap;
  if (!b) throw new Error('no bootstrap.json');
  const collection = await setupContent(b);
  const seeded = await seedResources(b, collection, resources, 32);
  await waitForDelivery(b, seeded.keys, 60_000 + resources * 10);
  process.stdout.write(`seeded ${resources} resources into ${dir}\n`);
} finally {
  await service.stop();
}
