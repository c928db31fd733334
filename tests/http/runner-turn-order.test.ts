import { expect } from 'chai';
import { DELIVERY_CONSUMER } from '../../projections/delivery-index.js';
import type { ProjectionTarget } from '../../projections/runner.js';
import { collectionWithSchema, v1 } from '../support/content.js';
import { startTestService, type TestService } from '../support/service.js';

/** Notes, in order, each projection's batch as its runner starts applying it: name and last position. */
function recorder(started: { name: string; position: string }[]) {
  return (target: ProjectionTarget): ProjectionTarget => ({
    name: target.name,
    checkpoint: () => target.checkpoint(),
    async apply(events, position) {
      started.push({ name: target.name, position });
      await target.apply(events, position);
    },
    ...(target.issued ? { issued: () => target.issued!() } : {}),
  });
}

const READ_SIDE = ['read-models', 'revisions', 'usage'];

/** For the batches that end at the create's position: the order the runners started them in. */
async function orderOfOneCreate(): Promise<string[]> {
  const started: { name: string; position: string }[] = [];
  let s: TestService | undefined;
  try {
    s = await startTestService({}, undefined, { wrapProjectionTarget: recorder(started) });
    const folder = await collectionWithSchema(s, 'articles');
    started.length = 0;
    const created = await s.api('POST', v1(s, `/collections/${folder}/resources/?wait=true`), { data: { title: 'One' } });
    expect(created.status).to.equal(201);
    const last = started.filter((b) => b.name === DELIVERY_CONSUMER).at(-1)!.position;
    return started.filter((b) => b.position === last && (b.name === DELIVERY_CONSUMER || READ_SIDE.includes(b.name))).map((b) => b.name);
  } finally {
    await s?.stop();
  }
}

describe('the turn each projection takes a new group in (docs/decisions/0276)', () => {
  it('the delivery index first, the read side a turn later', async () => {
    const order = await orderOfOneCreate();
    expect(order).to.have.length(4);
    expect(order[0]).to.equal(DELIVERY_CONSUMER);
    expect([...order.slice(1)].sort()).to.deep.equal([...READ_SIDE].sort());
  });
});
