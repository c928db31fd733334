import { expect } from 'chai';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { deliveryReadsFirst } from '../../infra/http/delivery-reads-first.js';

const request = (name: string) => ({ name }) as unknown as IncomingMessage;
const response = (name: string) => ({ name }) as unknown as ServerResponse;
const nameOf = (x: unknown): string => (x as { name: string }).name;
/** One turn of the event loop: what was queued with setImmediate before it has run. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** The management listener runs in slices after the turn that read it, so delivery reads go first (docs/decisions/0275). */
describe('delivery reads first: the management listener deferred and sliced', () => {
  const recorder = () => {
    const order: string[] = [];
    const listener = Object.assign((req: IncomingMessage, res: ServerResponse) => void order.push(`${nameOf(req)}/${nameOf(res)}`), { thin: () => 7 });
    return { order, listener };
  };

  it('runs each management request after what the turn that read it does, in arrival order, with its own request and response', async () => {
    const { order, listener } = recorder();
    const deferred = deliveryReadsFirst(listener, 1_000);
    deferred(request('w1'), response('r1'));
    deferred(request('w2'), response('r2'));
    order.push('delivery read'); // what the delivery server does in the same turn
    deferred(request('w3'), response('r3'));
    expect(order).to.deep.equal(['delivery read']);
    await turn();
    expect(order).to.deep.equal(['delivery read', 'w1/r1', 'w2/r2', 'w3/r3']);
  });

  it('leaves the requests over the turn budget to the next turn, still in arrival order, behind none that came later', async () => {
    const { order, listener } = recorder();
    const deferred = deliveryReadsFirst(listener, 0); // every turn runs one request
    deferred(request('w1'), response('r1'));
    deferred(request('w2'), response('r2'));
    deferred(request('w3'), response('r3'));
    await turn();
    expect(order).to.deep.equal(['w1/r1']);
    order.push('delivery read');
    deferred(request('w4'), response('r4'));
    await turn();
    expect(order).to.deep.equal(['w1/r1', 'delivery read', 'w2/r2']);
    await turn();
    await turn();
    expect(order).to.deep.equal(['w1/r1', 'delivery read', 'w2/r2', 'w3/r3', 'w4/r4']);
  });

  it('counts the promise continuations of a request in its turn', async () => {
    const order: string[] = [];
    const slow = async (req: IncomingMessage) => {
      await Promise.resolve();
      const until = performance.now() + 5;
      while (performance.now() < until); // 5 ms of work after an await, inside the 4 ms budget's turn
      order.push(nameOf(req));
    };
    const deferred: (req: IncomingMessage, res: ServerResponse) => void = deliveryReadsFirst((req: IncomingMessage) => void slow(req), 4);
    deferred(request('w1'), response('r1'));
    deferred(request('w2'), response('r2'));
    await turn();
    expect(order).to.deep.equal(['w1']);
    await turn();
    expect(order).to.deep.equal(['w1', 'w2']);
  });

  it('keeps the properties of the listener it wraps', () => {
    const management = Object.assign(() => {}, { thin: () => 7 });
    expect(deliveryReadsFirst(management).thin()).to.equal(7);
  });
});
