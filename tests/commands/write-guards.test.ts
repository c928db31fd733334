import { expect } from 'chai';
import { join } from 'node:path';
import { CommandBus } from '../../commands/command-bus.js';
import { createLocale } from '../../commands/locales.js';
import { releaseSlot } from '../../commands/resource-quota.js';
import type { CommandContext } from '../../commands/context.js';
import type { EventMetadata } from '../../commands/ports.js';
import { streams } from '../../commands/streams.js';
import { bootstrap } from '../../commands/tenancy.js';
import { billingGuard, environmentWriteGuard } from '../../commands/write-guards.js';
import { environment } from '../../domain/environment/decider.js';
import { DomainError } from '../../domain/errors.js';
import { SqliteEventStore } from '../../infra/sqlite/event-store.js';
import { tempDir } from '../support/temp.js';

const now = '2026-01-15T00:00:00.000Z';
const as = (actor_type: EventMetadata['actor_type']): EventMetadata => ({ actor_type, actor: null, ip_address: null, referer: null, timestamp: now });

async function refusal(work: () => Promise<unknown>): Promise<DomainError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

/** Any write path (management routes, delivery writes, MCP tools) reaches these checks by sending its command through the bus. */
describe('write guards on the command bus', () => {
  let store: SqliteEventStore;
  let bus: CommandBus;
  let env: string;
  let writes = 0;
  const ctx = (actor: EventMetadata['actor_type']): CommandContext => ({ env, now, metadata: as(actor) });

  before(async () => {
    store = new SqliteEventStore(join(tempDir(), 'events.db'));
    bus = new CommandBus(store);
    ({ environment: env } = await bootstrap(bus, { plan: 'free', email: 'a@example.com', now }));
    bus.useGuard(environmentWriteGuard(bus));
    bus.useGuard(billingGuard(bus, async () => ({ writes, vector_storage: 0 }), { freeWrites: 10, freeVectorStorageBytes: 1000, writePriceUsd: 1, spendCapUsd: null }));
  });
  after(async () => store.close());

  it('refuses a write of a user or key in a protected environment and lets the service\'s own cascades finish', async () => {
    await bus.handle(environment, streams.environment(env), {
      type: 'ProtectEnvironment',
      data: { key: env, protection_level: 'read_only', protection_reason: null, user: null, now },
    }, as('user'));
    for (const actor of ['user', 'apikey'] as const) {
      const error = await refusal(() => createLocale(bus, ctx(actor), { code: 'de', name: 'de', is_default: false }));
      expect(error.code).to.equal('environment_protected');
    }
    expect((await createLocale(bus, ctx('system'), { code: 'de', name: 'de', is_default: false })).events).to.have.length(1);
    await bus.handle(environment, streams.environment(env), {
      type: 'ProtectEnvironment',
      data: { key: env, protection_level: 'none', protection_reason: null, user: null, now },
    }, as('user'));
  });

  it('refuses writes with plan_exhausted once the meter reaches the allowance', async () => {
    writes = 10;
    const error = await refusal(() => createLocale(bus, ctx('apikey'), { code: 'fr', name: 'fr', is_default: false }));
    expect(error.code).to.equal('plan_exhausted');
    expect(error.detail).to.deep.equal({ axis: 'writes', window_resets_at: '2026-02-01T00:00:00.000Z', upgrade_url: '/organizations/plan/' });
    writes = 9;
    // Past the guards, the locale quota of the free plan (en and de) answers.
    expect((await refusal(() => createLocale(bus, ctx('apikey'), { code: 'fr', name: 'fr', is_default: false }))).code).to.equal('plan_limit_exceeded');
  });

  it('lets releases and the later steps of an admitted operation through, blocked or protected (decision 0152)', async () => {
    const protect = (protection_level: 'locked' | 'none') =>
      bus.handle(environment, streams.environment(env), { type: 'ProtectEnvironment', data: { key: env, protection_level, protection_reason: null, user: null, now } }, as('user'));
    const quota = { limit: 10, existing: async () => [] };
    writes = 0;
    await protect('locked');
    writes = 10;
    await releaseSlot(bus, quota, ctx('apikey'), 'folder', 'gone');
    await releaseSlot(bus, quota, ctx('user'), 'folder', 'gone');
    expect((await refusal(() => createLocale(bus, ctx('user'), { code: 'it', name: 'it', is_default: false }))).code).to.equal('environment_protected');
    writes = 0;
    await protect('none');
  });
});
